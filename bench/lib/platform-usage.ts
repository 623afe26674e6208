import { listenerPid, serverCpuMs, treeCpuMs } from './cpu';
import { descendants, rssMb } from './memory';

/** The processes of the platform a sending benchmark measures; the SMTP sink is not among them. */
export interface PlatformProcesses {
  workers: () => number[];
  databaseUrl: string;
  /** None for a sender without Temporal (a peer such as listmonk): its figure is then 0. */
  temporalAddress?: string;
}

export interface Reading {
  workers: number;
  postgres: number;
  temporal: number;
}

function portOf(address: string): number {
  return Number(new URL(address.includes('://') ? address : `tcp://${address}`).port);
}

/**
 * CPU and peak memory of the platform's processes over a run: the worker processes (the sum over those that
 * ran), the PostgreSQL server (every backend, ended ones included) and the Temporal server. CPU per email is
 * the figure to compare across runs on a busy machine; the rate depends on what else runs.
 */
export class PlatformUsage {
  private readonly postgresPid: number | null;
  private readonly temporalPid: number | null;
  private start: Reading = { workers: 0, postgres: 0, temporal: 0 };
  private readonly workerStart = new Map<number, number>();
  private readonly workerLast = new Map<number, number>();
  private readonly peakMb = { worker: 0, postgres: 0, temporal: 0 };
  private sampler: NodeJS.Timeout | undefined;

  constructor(private readonly processes: PlatformProcesses) {
    this.postgresPid = listenerPid(portOf(processes.databaseUrl));
    this.temporalPid = processes.temporalAddress === undefined ? null : listenerPid(portOf(processes.temporalAddress));
  }

  begin(): void {
    this.workerStart.clear();
    this.workerLast.clear();
    // Workers running now count from here; any started later, from their beginning.
    for (const pid of this.processes.workers()) this.workerStart.set(pid, treeCpuMs(pid));
    this.start = this.read();
    this.sampler = setInterval(() => this.sample(), 500);
  }

  /** Milliseconds of CPU since `begin`, per part, the run still under way. */
  elapsed(): Reading {
    const now = this.read();
    return {
      workers: now.workers - this.start.workers,
      postgres: now.postgres - this.start.postgres,
      temporal: now.temporal - this.start.temporal,
    };
  }

  /** Milliseconds of CPU since `begin`, per part, and the peak resident memory of one process of each. */
  end(): { cpuMs: Reading; peakMb: { worker: number; postgres: number; temporal: number } } {
    clearInterval(this.sampler);
    return { cpuMs: this.elapsed(), peakMb: { ...this.peakMb } };
  }

  /** Between the two readings only the workers need watching (one may be killed), and memory. */
  private sample(): void {
    this.noteWorkers();
    for (const pid of this.processes.workers()) this.peakMb.worker = Math.max(this.peakMb.worker, rssMb(pid));
    if (this.postgresPid)
      for (const pid of descendants(this.postgresPid)) this.peakMb.postgres = Math.max(this.peakMb.postgres, rssMb(pid));
    if (this.temporalPid) this.peakMb.temporal = Math.max(this.peakMb.temporal, rssMb(this.temporalPid));
  }

  /** Workers count from the first time they were seen; a worker killed keeps its last reading. */
  private noteWorkers(): void {
    for (const pid of this.processes.workers()) {
      const ms = treeCpuMs(pid);
      if (!this.workerStart.has(pid)) this.workerStart.set(pid, 0);
      if (ms > 0) this.workerLast.set(pid, ms);
    }
  }

  private read(): Reading {
    this.noteWorkers();
    const workers = [...this.workerLast].reduce((sum, [pid, ms]) => sum + ms - (this.workerStart.get(pid) ?? 0), 0);
    return {
      workers,
      postgres: this.postgresPid ? serverCpuMs(this.postgresPid) : 0,
      temporal: this.temporalPid ? serverCpuMs(this.temporalPid) : 0,
    };
  }
}
