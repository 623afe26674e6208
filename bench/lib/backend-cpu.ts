import type { EntityManager } from '@mikro-orm/postgresql';
import { cpuMsOf } from './cpu';

/**
 * CPU of the PostgreSQL backends that serve one application, told apart from other users of the server by
 * their `application_name` (set it with PGAPPNAME in the process that connects).
 */
export class BackendCpu {
  private before = new Map<number, number>();

  constructor(
    private readonly em: EntityManager,
    private readonly application: string,
  ) {}

  private async pids(): Promise<number[]> {
    const rows = await this.em
      .fork()
      .execute<Array<{ pid: number }>>('select pid from pg_stat_activity where application_name = ?', [this.application]);
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
