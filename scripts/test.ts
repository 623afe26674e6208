/**
 * `npm test`: brings up PostgreSQL and the Temporal dev server (reusing ones already running, e.g. from
 * `npm start`), then runs every test. Arguments are passed to jest.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root, temporalTestServer } from './lib/paths';
import { ports } from './lib/ports';
import { ensurePostgres } from './lib/postgres';
import { ensureTemporal } from './lib/temporal';
import { withLock } from './lib/lock';

const log = (line: string) => console.log(line);

async function main(): Promise<number> {
  const { pg, temporal } = await withLock('services', async () => ({
    pg: await ensurePostgres(ports.postgres, log),
    temporal: await ensureTemporal(ports.temporal, ports.temporalUi, log),
  }));
  try {
    const jest = path.join(root, 'node_modules', '.bin', 'jest');
    const env = {
      ...process.env,
      TEST_POSTGRES_ADMIN_URL: pg.adminUrl,
      TEST_TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TEST_SERVER_PATH: temporalTestServer,
    };
    const args = process.env.CI ? ['--ci', ...process.argv.slice(2)] : process.argv.slice(2);
    return await new Promise<number>((resolve) => {
      const child = spawn(jest, args, { cwd: root, env, stdio: 'inherit' });
      // Stopped from outside: jest ends, then the servers this run started stop below.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)));
    });
  } finally {
    await temporal.stop();
    await pg.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
