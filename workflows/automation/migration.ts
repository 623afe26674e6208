import { CancellationScope, condition, patched } from '@temporalio/workflow';
import type { VersionMigration } from './ids';

/**
 * Marks the histories in which a run moved to another version of its automation. Runs that never get the signal
 * never ask, so they record no marker (nor the TemporalChangeVersion upsert it brings); a history recorded
 * before this code, where such a signal went unheard, replays without the move.
 */
export const MIGRATE_PATCH = 'automation-version-migration';

export type Rest<T> = { done: T } | { migration: VersionMigration };

/**
 * The migrations signalled to a run (docs/automations.md "Versions"). Only the latest counts, and only while the
 * run waits (a DELAY, a WAIT_FOR_EVENT, quiet hours) at the step it names: one that names another step came
 * while the run was elsewhere, and is dropped when the run next waits.
 */
export class Migrations {
  private pending: VersionMigration | null = null;

  add(migration: VersionMigration): void {
    this.pending = migration;
  }

  /** Runs the wait at `stepId`; a migration for that step ends it (its timer cancelled) and is answered instead. */
  async rest<T>(stepId: string, wait: () => Promise<T>): Promise<Rest<T>> {
    if (this.pending?.fromStepId !== stepId) this.pending = null;
    const scope = new CancellationScope();
    let outcome: { value: T } | { error: unknown } | null = null;
    const running = scope.run(wait).then(
      (value) => void (outcome = { value }),
      (error: unknown) => void (outcome = { error }),
    );
    const arrived = () => this.pending?.fromStepId === stepId;
    await condition(() => outcome !== null || arrived());
    const migration = this.pending;
    if (outcome === null && migration !== null && arrived() && patched(MIGRATE_PATCH)) {
      this.pending = null;
      scope.cancel();
      await running;
      return { migration };
    }
    await running;
    const ended = outcome as unknown as { value: T } | { error: unknown };
    if ('error' in ended) throw ended.error;
    return { done: ended.value };
  }
}
