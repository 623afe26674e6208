import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { root } from './paths';

const vite = path.join(root, 'node_modules', '.bin', 'vite');
const config = path.join(root, 'src', 'dashboard', 'vite.config.mts');
const quiet = { VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };

/** Builds the dashboard into `outDir` (docs/dashboard.md); throws with vite's output when it fails. */
export function buildDashboard(outDir: string): void {
  const built = spawnSync(vite, ['build', '--config', config, '--logLevel', 'error'], {
    cwd: root,
    env: { ...process.env, ...quiet, DASHBOARD_OUT_DIR: outDir },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the dashboard failed:\n${built.stdout}${built.stderr}`);
}

/** The development server with hot reload, proxying the API at `apiUrl` so both share its origin. */
export function startDashboardDevServer(port: number, apiUrl: string, log: (line: string) => void): ChildProcess {
  const child = spawn(vite, ['--config', config, '--port', String(port), '--host', '127.0.0.1', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, ...quiet, DASHBOARD_API_URL: apiUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => log(`[dashboard] ${chunk.toString().trimEnd()}`));
  return child;
}
