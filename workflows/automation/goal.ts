import { CancellationScope, isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import { delayMs, type Goal } from './definition';
import type { AutomationEvent } from './ids';

/**
 * Marks the histories of runs that took their goal's signal: one recorded without it (a worker of before goals ran
 * it, which left the signal unhandled) replays as it ran. Asked only when a goal's signal comes, so that the marker
 * and its TemporalChangeVersion upsert are in the histories of converting runs only.
 */
export const GOAL_PATCH = 'automation-goal';

/**
 * A run's watch for its goal (docs/automations.md "Goals"). The goal's signal, when it comes within the window
 * (on the run's clock, from its start), ends the execution CONVERTED. The waits the run does itself (a stop
 * step's timer, event or webhook, a hold, quiet hours) are cut short at once; an advance in flight finishes its
 * quick steps first (a moment), so that none of its writes lands after the end.
 */
export class GoalWatch {
  reached: AutomationEvent | null = null;
  private cut: (() => void) | null = null;
  private readonly until: number;

  constructor(goal: Goal) {
    this.until = goal.window ? workflowInfo().runStartTime.getTime() + delayMs(goal.window) : Infinity;
  }

  /** The goal's signal: the first one within the window counts. */
  reach(event: AutomationEvent): void {
    if (this.reached || Date.now() > this.until || !patched(GOAL_PATCH)) return;
    this.reached = event;
    this.cut?.();
  }

  /**
   * Runs a wait of the run's own; null when the goal was reached before or during it, also when the wait ended in
   * the same activation as the goal's signal (a timer fired, an event came): the goal, signalled, comes first.
   */
  async during<T>(wait: () => Promise<T>): Promise<T | null> {
    if (this.reached) return null;
    const scope = new CancellationScope();
    this.cut = () => scope.cancel();
    try {
      const result = await scope.run(wait);
      return this.reached ? null : result;
    } catch (err) {
      if (this.reached && isCancellation(err)) return null;
      throw err;
    } finally {
      this.cut = null;
    }
  }
}

/** The run's watch; null for a definition without a goal. */
export const watchGoal = (goal: Goal | undefined): GoalWatch | null => (goal ? new GoalWatch(goal) : null);
