import type { Logger } from '../logger';
import type { Orm } from './orm';

/**
 * Vacuums a queue table once its consumer has deleted or moved `everyRows` rows since the last time. A queue
 * is claimed from the head of an index whose entries of deleted rows stay there until a vacuum; every claim
 * (and every look for the next due time) walks them all again, so its cost grows with what autovacuum has not
 * yet cleaned. Autovacuum visits a database at most once a minute, in which a campaign deletes tens of
 * thousands of rows (measured: docs/contributors/events.md "Vacuumed by its dispatcher"). SKIP_LOCKED: a vacuum
 * already under way (another worker's, autovacuum's) does the same work, so this one is not waited for.
 */
export class QueueVacuum {
  private dead = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly orm: Orm,
    private readonly table: string,
    private readonly everyRows: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Counts rows the consumer's committed transaction deleted or updated (each leaves a dead version); starts a
   * vacuum in the background once there are enough.
   */
  rowsLeftDead(n: number): void {
    this.dead += n;
    if (this.dead < this.everyRows || this.running) return;
    this.dead = 0;
    this.running = this.orm.em
      .fork()
      .execute(`vacuum (skip_locked) "${this.table}"`)
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, table: this.table }, 'could not vacuum a queue table; autovacuum will'),
      )
      .finally(() => {
        this.running = null;
      });
  }

  /** Waits for a vacuum under way, so that the connections can close under none. */
  async close(): Promise<void> {
    await this.running;
  }
}
