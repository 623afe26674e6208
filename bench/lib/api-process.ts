import { spawn } from 'node:child_process';
import { freshSecrets } from './secrets';
import { root, tsx } from '../../scripts/lib/paths';
import { isPortOpen } from '../../scripts/lib/net';
import { treePids } from './cpu';

export interface ApiProcess {
  url: string;
  /** The process (tsx) whose tree runs the API. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The API as `npm start` runs it (src/main/api.ts, its own process), on `port` over `databaseUrl`, with
 * `env` on top; for benchmarks that need settings the running server does not have, or a database of their
 * own. Its log goes to stderr at warn level. `entry` may wrap src/main/api.ts (bench/lib/loop-monitored-api.ts).
 */
export async function startApiProcess(
  port: number,
  databaseUrl: string,
  env: Record<string, string> = {},
  entry = 'src/main/api.ts',
): Promise<ApiProcess> {
  if (await isPortOpen(port)) throw new Error(`port ${port} is taken; set BENCH_PORT to a free one`);
  const child = spawn(tsx, [entry], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      ...freshSecrets(),
      // A benchmark that does not simulate measures no test server; bench/simulate.ts turns it on to compare.
      SIMULATION_WARM: 'false',
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode} before answering`);
    if (
      await fetch(`${url}/config`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error('the API did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const tree = treePids(child.pid!);
      if (child.exitCode === null) child.kill('SIGTERM');
      // A graceful stop waits for idle keep-alive connections; do not wait that long.
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(force);
      // Killed before its own ordered stop ended, the API leaves its children (a simulation's test server) behind.
      for (const pid of tree.slice(1)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone: the usual case.
        }
      }
    },
  };
}
