/**
 * The API (src/main/api.ts) with its event loop watched: perf_hooks' monitorEventLoopDelay at 1 ms
 * resolution. On SIGUSR2 the process writes the longest stall since the previous signal and its own CPU
 * time to BENCH_LOOP_FILE, then starts a new window; see readLoopWindow in loop-window.ts.
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (!file) throw new Error('BENCH_LOOP_FILE is not set');
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let seq = 0;
const write = () => {
  const cpu = process.cpuUsage();
  // Written aside and renamed, so that a reader never sees half a file.
  writeFileSync(`${file}.new`, JSON.stringify({ seq, pid: process.pid, maxDelayMs: histogram.max / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 }));
  renameSync(`${file}.new`, file);
};
write();
process.on('SIGUSR2', () => {
  seq++;
  write();
  histogram.reset();
});
void import(path.join(__dirname, '../../src/main/api.ts'));
