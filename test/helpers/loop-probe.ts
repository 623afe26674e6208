import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The event loop of this process watched two ways, for the API of the benchmarks (bench/lib/loop-monitored-api.ts):
 * - `maxBlockMs`: the most CPU the main thread spent between two ticks of a 1 ms timer
 *   (process.threadCpuUsage): how long the loop was kept busy by work of its own, whatever the machine's load;
 * - `maxDelayMs`: perf_hooks' monitorEventLoopDelay at 1 ms resolution, the longest wall-clock stall, which on
 *   a busy machine also counts time the process waited for a core.
 */
export interface LoopWindow {
  maxBlockMs: number;
  maxDelayMs: number;
}

const threadCpuMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};

export class LoopProbe {
  private readonly histogram = monitorEventLoopDelay({ resolution: 1 });
  private readonly timer: NodeJS.Timeout;
  private lastTick = threadCpuMs();
  private maxBlockMs = 0;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => {
      const now = threadCpuMs();
      this.maxBlockMs = Math.max(this.maxBlockMs, now - this.lastTick);
      this.lastTick = now;
    }, 1).unref();
  }

  /** The window since the probe started or the last call, and a new window from now. */
  window(): LoopWindow {
    const window = { maxBlockMs: this.maxBlockMs, maxDelayMs: this.histogram.max / 1e6 };
    this.histogram.reset();
    this.maxBlockMs = 0;
    this.lastTick = threadCpuMs();
    return window;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
