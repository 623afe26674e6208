/**
 * How long `npm start` takes until the API answers, measured on a start after a first one has set
 * everything up (.data, npm packages, Temporal CLI). Runs `npm start` BENCH_STARTS times (default 2), each
 * until GET /config answers, then stops it as Ctrl-C would, and prints each figure. It refuses to run while
 * an API already answers on PORT: stop that `npm start` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isPortOpen } from '../scripts/lib/net';
import { ports } from '../scripts/lib/ports';

const root = path.resolve(__dirname, '..');
const configUrl = `http://127.0.0.1:${ports.api}/config`;
const TIMEOUT_MS = 300_000;

async function answers(): Promise<boolean> {
  try {
    return (await fetch(configUrl)).ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** One `npm start` in a process group of its own, so that stopping it reaches every process it started. */
async function timeOneStart(): Promise<number> {
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: root, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  const stopped = exited(child);
  try {
    while (!(await answers())) {
      if (child.exitCode !== null) throw new Error(`npm start exited with code ${child.exitCode} before the API answered`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`the API did not answer within ${TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return (performance.now() - started) / 1000;
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await stopped;
    while (await isPortOpen(ports.api)) await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  if (await answers()) {
    console.error(`An API already answers on ${configUrl}: stop that npm start first; this measures starting from stopped.`);
    process.exit(2);
  }
  const runs = Number(process.env.BENCH_STARTS ?? 2);
  for (let run = 1; run <= runs; run++) {
    const seconds = await timeOneStart();
    console.log(`npm start #${run}: API answered after ${seconds.toFixed(1)} s${run === 1 ? ' (may include first-time setup)' : ''}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
