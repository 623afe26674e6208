import type { EntityManager } from '@mikro-orm/postgresql';
import { cpuMsOf } from './cpu';

interface Backend {
  pid: number;
  /** Its application_name, or its kind (`client backend`, `autovacuum worker`, …) when it has none. */
  application: string;
  sameDatabase: boolean;
}

type BackendQuery = (sql: string) => Promise<Backend[]>;

/**
 * What PostgreSQL's backends spend over a span, by application_name (or the backend's kind), from samples: each
 * backend counts from its first sample (from 0 when it connected during the span) to its last, so one that ends
 * between samples keeps what the last one saw. A difference of two sums over the backends connected at each end
 * lost all of such a backend's CPU, and went below zero when a pool closed idle connections during the span.
 */
export class BackendCpuSpan {
  private readonly backends = new Map<number, { application: string; first: number; last: number }>();
  private sampled = false;

  /** `follows`: which of pg_stat_activity's backends count (all by default). */
  constructor(
    private readonly query: BackendQuery,
    private readonly follows: (backend: Backend) => boolean = () => true,
  ) {}

  async sample(): Promise<void> {
    const rows = (
      await this.query(
        `select pid, coalesce(nullif(application_name, ''), backend_type) as application, datname = current_database() as "sameDatabase"
         from pg_stat_activity`,
      )
    ).filter(this.follows);
    const cpu = cpuMsOf(rows.map((r) => r.pid));
    for (const { pid, application } of rows) {
      const cpuMs = cpu.get(pid) ?? 0;
      const seen = this.backends.get(pid);
      // A backend gone between the query and the read of its CPU reads 0: keep what was seen before.
      if (seen) seen.last = Math.max(seen.last, cpuMs);
      else this.backends.set(pid, { application, first: this.sampled ? 0 : cpuMs, last: cpuMs });
    }
    this.sampled = true;
  }

  /** CPU milliseconds over the span by application, those that spent none left out. */
  byApplication(): Map<string, number> {
    const by = new Map<string, number>();
    for (const { application, first, last } of this.backends.values())
      if (last > first) by.set(application, (by.get(application) ?? 0) + last - first);
    return by;
  }

  get totalMs(): number {
    return [...this.byApplication().values()].reduce((sum, ms) => sum + ms, 0);
  }
}

/**
 * CPU of PostgreSQL backends: those that serve one application, told apart from other users of the server by
 * their `application_name` (set it with PGAPPNAME in the process that connects), or, without one, every backend
 * on the current database (for a benchmark whose database only its own process uses: its pooled connections
 * and the dedicated ones a pump opens alike).
 */
export class BackendCpu {
  private span: BackendCpuSpan | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly application?: string,
  ) {}

  async start(): Promise<void> {
    const application = this.application;
    this.span = new BackendCpuSpan(
      (sql) => this.em.fork().execute(sql),
      application === undefined ? (b) => b.sameDatabase : (b) => b.application === application,
    );
    await this.span.sample();
  }

  /** Milliseconds spent since `start` by the backends alive now (a backend that ended in between is missed). */
  async elapsedMs(): Promise<number> {
    if (!this.span) throw new Error('BackendCpu: elapsedMs before start');
    await this.span.sample();
    return this.span.totalMs;
  }
}
