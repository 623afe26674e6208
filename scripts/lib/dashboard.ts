import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { dataDir, root } from './paths';
import { digestOf, filesUnder } from './digest';

const vite = path.join(root, 'node_modules', '.bin', 'vite');
const config = path.join(root, 'src', 'dashboard', 'vite.config.mts');
const quiet = { VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };

/**
 * The built dashboard for `npm start`, in a folder named by a digest of its sources (the design tokens too) and the locked packages:
 * built when they changed (about a second), reused otherwise; older builds are removed.
 */
export function ensureDashboard(log: (line: string) => void): string {
  const parent = path.join(dataDir, 'dashboard');
  const name = digestOf([
    ...filesUnder(path.join(root, 'src', 'dashboard')),
    ...filesUnder(path.join(root, 'src', 'design')),
    path.join(root, 'package-lock.json'),
  ]);
  const dir = path.join(parent, name);
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  const started = Date.now();
  buildDashboard(dir);
  log(`[postwire] dashboard built in ${((Date.now() - started) / 1000).toFixed(1)}s: ${path.relative(root, dir)}`);
  for (const old of fs.readdirSync(parent)) if (old !== name) fs.rmSync(path.join(parent, old), { recursive: true, force: true });
  return dir;
}

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
