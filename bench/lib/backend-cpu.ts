import type { EntityManager } from '@mikro-orm/postgresql';
import { cpuMsOf } from './cpu';

/**
 * CPU of PostgreSQL backends: those that serve one application, told apart from other users of the server by
 * their `application_name` (set it with PGAPPNAME in the process that connects), or, without one, every backend
 * on the current database (for a benchmark whose database only its own process uses: its pooled connections
 * and the dedicated ones a pump opens alike).
 */
export class BackendCpu {
  private before = new Map<number, number>();

  constructor(
    private readonly em: EntityManager,
    private readonly application?: string,
  ) {}

  private async pids(): Promise<number[]> {
    const rows = await this.em
      .fork()
      .execute<Array<{ pid: number }>>(
        this.application === undefined
          ? 'select pid from pg_stat_activity where datname = current_database()'
          : 'select pid from pg_stat_activity where application_name = ?',
        this.application === undefined ? [] : [this.application],
      );
    return rows.map((r) => r.pid);
  }

  async start(): Promise<void> {
    this.before = cpuMsOf(await this.pids());
  }

  /** Milliseconds spent since `start` by the backends alive now (a backend that ended in between is missed). */
  async elapsedMs(): Promise<number> {
    const after = cpuMsOf(await this.pids());
    return [...after].reduce((sum, [pid, ms]) => sum + ms - (this.before.get(pid) ?? 0), 0);
  }
}
