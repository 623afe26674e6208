/**
 * The API (src/main/api.ts) with its event loop watched, two ways:
 * - `maxDelayMs`: perf_hooks' monitorEventLoopDelay at 1 ms resolution, the longest wall-clock stall. On a
 *   busy machine it also counts time the process waited for a core.
 * - `maxBlockMs`: the most CPU the main thread spent between two ticks of a 1 ms timer
 *   (process.threadCpuUsage), i.e. the longest the loop was kept busy by work of its own, whatever the
 *   load of the machine.
 * On SIGUSR2 the process writes both for the window since the previous signal, with its CPU time so far,
 * to BENCH_LOOP_FILE, then starts a new window; see readLoopWindow in loop-window.ts.
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (!file) throw new Error('BENCH_LOOP_FILE is not set');
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

const threadCpuMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};
let lastTick = threadCpuMs();
let maxBlockMs = 0;
setInterval(() => {
  const now = threadCpuMs();
  maxBlockMs = Math.max(maxBlockMs, now - lastTick);
  lastTick = now;
}, 1).unref();

let seq = 0;
const write = () => {
  const cpu = process.cpuUsage();
  // Written aside and renamed, so that a reader never sees half a file.
  writeFileSync(
    `${file}.new`,
    JSON.stringify({ seq, pid: process.pid, maxDelayMs: histogram.max / 1e6, maxBlockMs, cpuMs: (cpu.user + cpu.system) / 1000 }),
  );
  renameSync(`${file}.new`, file);
};
write();
process.on('SIGUSR2', () => {
  seq++;
  write();
  histogram.reset();
  maxBlockMs = 0;
  lastTick = threadCpuMs();
});
void import(path.join(__dirname, '../../src/main/api.ts'));
