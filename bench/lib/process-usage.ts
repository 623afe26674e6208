import { listenerPid, serverCpuMs, treeCpuMs } from './cpu';
import { descendants, pssMb } from './memory';

/**
 * CPU and memory of the named parts of a stack (the worker processes, the API processes, the Temporal server,
 * PostgreSQL), each a set of root processes counted with their descendants. CPU comes from /proc, a figure
 * other load on the machine does not skew; memory is the proportional set size (Pss), so the shared memory
 * of PostgreSQL's backends counts once across them.
 */
export interface Part {
  name: string;
  /** The part's root processes now; a process seen once and gone later keeps its last reading. */
  pids: () => number[];
  /** Count the CPU of ended children too (a server's finished connection processes). */
  reaped?: boolean;
}

/** CPU milliseconds per part since some moment. */
export type CpuReading = Record<string, number>;

/** The process listening on the port of `address` (`host:port` or a URL), as a part's root. */
export function listenerOf(address: string): () => number[] {
  const port = Number(new URL(address.includes('://') ? address : `tcp://${address}`).port);
  const pid = listenerPid(port);
  return () => (pid === null ? [] : [pid]);
}

export class ProcessUsage {
  /** The last CPU reading of every root process seen, per part: a killed process keeps what it used. */
  private readonly last = new Map<string, Map<number, number>>();
  private readonly peak = new Map<string, number>();
  private sampler: NodeJS.Timeout | undefined;

  constructor(readonly parts: Part[]) {
    for (const part of parts) this.last.set(part.name, new Map());
  }

  /** Total CPU milliseconds per part so far (of the processes seen): subtract two readings for a phase. */
  cpu(): CpuReading {
    const reading: CpuReading = {};
    for (const part of this.parts) {
      const seen = this.last.get(part.name)!;
      for (const pid of part.pids()) {
        const ms = part.reaped ? serverCpuMs(pid) : treeCpuMs(pid);
        if (ms > 0) seen.set(pid, ms);
      }
      reading[part.name] = [...seen.values()].reduce((a, b) => a + b, 0);
    }
    return reading;
  }

  /** Samples memory (and CPU, to keep killed processes' last figure) every `ms` until `stop`. */
  watch(ms = 1_000): void {
    this.sampler ??= setInterval(() => this.sample(), ms);
  }

  stop(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
  }

  /** Memory now, MB per part (Pss summed over each part's process trees). */
  memory(): Record<string, number> {
    const now: Record<string, number> = {};
    for (const part of this.parts)
      now[part.name] = part
        .pids()
        .flatMap(descendants)
        .reduce((sum, pid) => sum + pssMb(pid), 0);
    return now;
  }

  /** The highest memory sampled per part, MB. */
  peaks(): Record<string, number> {
    return Object.fromEntries(this.parts.map((p) => [p.name, this.peak.get(p.name) ?? 0]));
  }

  resetPeaks(): void {
    this.peak.clear();
  }

  private sample(): void {
    this.cpu();
    for (const [name, mb] of Object.entries(this.memory())) this.peak.set(name, Math.max(this.peak.get(name) ?? 0, mb));
  }
}

/** `after - before` per part. */
export const cpuBetween = (before: CpuReading, after: CpuReading): CpuReading =>
  Object.fromEntries(Object.entries(after).map(([name, ms]) => [name, ms - (before[name] ?? 0)]));
