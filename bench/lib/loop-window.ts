import { readFileSync } from 'node:fs';

export interface LoopWindow {
  seq: number;
  pid: number;
  /** The longest event-loop stall of the window, wall clock, ms (1 ms resolution, so an idle loop shows about 1). */
  maxDelayMs: number;
  /** The most main-thread CPU between two ticks of a 1 ms timer in the window, ms: blocking by the loop's own work. */
  maxBlockMs: number;
  /** The API process's CPU time so far, ms. */
  cpuMs: number;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as LoopWindow;

/** Ends the current window of the API that loop-monitored-api.ts runs, and returns it. */
export async function readLoopWindow(file: string): Promise<LoopWindow> {
  const before = read(file);
  process.kill(before.pid, 'SIGUSR2');
  for (;;) {
    await new Promise((r) => setTimeout(r, 1));
    const now = read(file);
    if (now.seq > before.seq) return now;
  }
}
