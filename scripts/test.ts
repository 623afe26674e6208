/**
 * `npm test`: type-checks, runs the unit tests (no servers), then brings up PostgreSQL and the Temporal dev
 * server (reusing ones already running, e.g. from `npm start`) and runs the stack tests, then the cluster
 * suite, whose files each start the production shape (docs/cluster.md) with the Temporal server built from
 * source (scripts/build-temporal-server.sh: minutes the first time, nothing afterwards); jest.config.js
 * defines the three projects. Arguments are passed to jest, and a run given some skips the checks of the whole
 * tree: it is a developer trying a few files, and CI runs without arguments; the servers start (and the
 * Temporal server is built) only when a test that needs them is among the files asked for. `--unit`
 * (`npm run test:unit`) runs only the unit tests.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, temporalTestServer } from './lib/paths';
import { ports } from './lib/ports';
import { ensurePostgres } from './lib/postgres';
import { ensureTemporal } from './lib/temporal';
import { withLock } from './lib/lock';
import { ensureTemporalServerBuild } from './lib/cluster/temporal-server';

const log = (line: string) => console.log(line);

/** What CI checks before the tests, each a command of node_modules/.bin; a failure stops the run. */
const CHECKS: Array<{ name: string; bin: string; args: string[] }> = [
  { name: 'typecheck', bin: 'tsc', args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'typecheck the dashboard', bin: 'tsc', args: ['--noEmit', '-p', 'src/dashboard/tsconfig.json'] },
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

/**
 * Tests counted over the jest runs of this command, printed last as the plain `tests: N passed, N failed`
 * line that CI reads (jest's own summary says `N total`, which CI does not recognise).
 */
const tally = { passed: 0, failed: 0 };
const tallyDir = mkdtempSync(path.join(os.tmpdir(), 'postwire-test-'));

function count(resultsFile: string): void {
  try {
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    tally.passed += results.numPassedTests;
    tally.failed += results.numFailedTests;
  } catch {
    // jest wrote no results (it failed before running any test): its exit code says so.
  }
}

/** Runs jest with `args` in the environment given; resolves to its exit code. */
function jest(args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const bin = path.join(root, 'node_modules', '.bin', 'jest');
  const resultsFile = path.join(tallyDir, `run-${tally.passed + tally.failed}-${Date.now()}.json`);
  const all = [...(process.env.CI ? ['--ci'] : []), '--json', `--outputFile=${resultsFile}`, ...args];
  return new Promise<number>((resolve) => {
    const child = spawn(bin, all, {
      cwd: root,
      env: { ...process.env, TEMPORAL_TEST_SERVER_PATH: temporalTestServer, ...env },
      stdio: 'inherit',
    });
    // Stopped from outside: jest ends, then the servers this run started stop below.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
    child.once('exit', (code, signal) => {
      count(resultsFile);
      resolve(code ?? (signal ? 130 : 1));
    });
  });
}

/** Whether the arguments select any test of the project: stack tests need PostgreSQL and Temporal, cluster tests the server build. */
function selects(project: 'stack' | 'cluster', args: string[]): boolean {
  const bin = path.join(root, 'node_modules', '.bin', 'jest');
  // The project goes last: --selectProjects takes every word after it, so paths after it would be read as project
  // names. With --json the list is all that stdout holds (without it, stdout also says which projects run).
  const listed = spawnSync(bin, ['--listTests', '--json', ...args, '--selectProjects', project], { cwd: root, encoding: 'utf8' });
  return listed.status !== 0 || (JSON.parse(listed.stdout) as string[]).length > 0;
}

/** The stack tests (or the files `args` select) with PostgreSQL and Temporal up for them. */
async function withServers(args: string[]): Promise<number> {
  const { pg, temporal } = await withLock('services', async () => ({
    pg: await ensurePostgres(ports.postgres, log),
    temporal: await ensureTemporal(ports.temporal, ports.temporalUi, log),
  }));
  try {
    return await jest(args, { TEST_POSTGRES_ADMIN_URL: pg.adminUrl, TEST_TEMPORAL_ADDRESS: temporal.address });
  } finally {
    await temporal.stop();
    await pg.stop();
  }
}

async function main(): Promise<number> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--unit') return jest(['--selectProjects', 'unit', ...rest]);
  if (first !== undefined) {
    const args = process.argv.slice(2);
    if (selects('cluster', args)) ensureTemporalServerBuild();
    return selects('stack', args) ? withServers(args) : jest(args);
  }
  if (!runChecks()) return 1;
  const unit = await jest(['--selectProjects', 'unit']);
  if (unit !== 0) return unit;
  const stack = await withServers(['--selectProjects', 'stack']);
  // Each cluster file runs a whole cluster: one at a time, after the stack tests, whatever their outcome.
  try {
    ensureTemporalServerBuild();
  } catch (err) {
    log(`[test] ${err instanceof Error ? err.message : String(err)}: the cluster tests cannot run`);
    return 1;
  }
  const cluster = await jest(['--selectProjects', 'cluster', '--runInBand']);
  return stack !== 0 ? stack : cluster;
}

main().then(
  (code) => {
    rmSync(tallyDir, { recursive: true, force: true });
    if (tally.passed + tally.failed > 0) log(`tests: ${tally.passed} passed, ${tally.failed} failed`);
    process.exit(code);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
