/**
 * `npm test`: type-checks, brings up PostgreSQL and the Temporal dev server (reusing ones already running, e.g.
 * from `npm start`), then runs every test. Arguments are passed to jest, and a run given some skips the checks
 * of the whole tree: it is a developer trying a few files, and CI runs without arguments.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { root, temporalTestServer } from './lib/paths';
import { ports } from './lib/ports';
import { ensurePostgres } from './lib/postgres';
import { ensureTemporal } from './lib/temporal';
import { withLock } from './lib/lock';

const log = (line: string) => console.log(line);

/** What CI checks before the tests, each a command of node_modules/.bin; a failure stops the run. */
const CHECKS: Array<{ name: string; bin: string; args: string[] }> = [
  { name: 'typecheck', bin: 'tsc', args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', bin: 'tsx', args: ['scripts/lint/run.ts'] },
];

function runChecks(): boolean {
  for (const check of CHECKS) {
    log(`[test] ${check.name}`);
    const result = spawnSync(path.join(root, 'node_modules', '.bin', check.bin), check.args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      log(`[test] ${check.name} failed`);
      return false;
    }
  }
  return true;
}

async function main(): Promise<number> {
  if (process.argv.length === 2 && !runChecks()) return 1;
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
