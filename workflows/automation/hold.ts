import { condition, setCurrentDetails } from '@temporalio/workflow';
import { HOLD_RECHECK } from './ids';

/** Marks the histories in which a SEND_EMAIL step waited for a suspended project (recorded before: never). */
export const HOLD_PATCH = 'hold-while-suspended';

/**
 * A SEND_EMAIL step whose project was suspended when it queued its email waits here until the project is
 * reinstated (docs/automations.md "While the project is suspended"): the email itself is held by the
 * delivery pump, and the execution goes on only once it can leave, so that the steps after it (a delay, a
 * wait for a click) count from then. The Web UI's current details say why it waits. The reinstatement
 * signals it; should that signal be lost, it asks again every HOLD_RECHECK.
 */
export class Hold {
  private wakes = 0;

  /** The reinstatement's signal. */
  wake(): void {
    this.wakes++;
  }

  /** Waits while `ask` says the project is suspended (its reason), starting from `reason`. */
  async whileSuspended(summary: string, reason: string, ask: () => Promise<string | null>): Promise<void> {
    for (let held: string | null = reason; held !== null; held = await ask()) {
      setCurrentDetails(`${summary}: held, the project is suspended (${held}); the email goes once it is reinstated`);
      const seen = this.wakes;
      await condition(() => this.wakes !== seen, HOLD_RECHECK);
    }
    setCurrentDetails(summary);
  }
}
