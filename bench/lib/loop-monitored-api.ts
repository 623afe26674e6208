/**
 * The API (src/main/api.ts) with its event loop watched (test/helpers/loop-probe.ts: its longest block, main-thread
 * CPU between two ticks of a 1 ms timer, and its longest wall-clock stall). On SIGUSR2 the process writes both
 * for the window since the previous signal, with its CPU time so far, to BENCH_LOOP_FILE, then starts a new
 * window; see readLoopWindow in loop-window.ts.
 */
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LoopProbe } from '../../test/helpers/loop-probe';

const file = process.env.BENCH_LOOP_FILE;
if (!file) throw new Error('BENCH_LOOP_FILE is not set');
const probe = new LoopProbe();

let seq = 0;
const write = () => {
  const cpu = process.cpuUsage();
  // Written aside and renamed, so that a reader never sees half a file.
  writeFileSync(`${file}.new`, JSON.stringify({ seq, pid: process.pid, ...probe.window(), cpuMs: (cpu.user + cpu.system) / 1000 }));
  renameSync(`${file}.new`, file);
};
write();
process.on('SIGUSR2', () => {
  seq++;
  write();
});
void import(path.join(__dirname, '../../src/main/api.ts'));
