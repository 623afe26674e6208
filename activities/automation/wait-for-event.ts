import type { Deps } from '../../src/deps';
import { writeAndRead, type MirrorState } from '../../src/modules/automations/records';
import { firstEventSince } from '../../src/modules/automations/run/wait';
import type { AutomationEvent } from '../../workflows/automation/ids';

interface WaitInput {
  state: MirrorState;
  eventName: string;
  used: string[];
}
type WaitBegun = { since: string; event: AutomationEvent | null } | null;

/** For runs started as `automation` (docs/automations.md "Versions"); advanceAutomation does the same for later ones. */
export const waitForEventActivities = (deps: Deps) => ({
  /**
   * WAIT_FOR_EVENT: marks the execution WAITING for the event (committed first, so the outbox consumer
   * signals from then on), then looks back for one tracked since the step began.
   */
  async beginAutomationWait(input: WaitInput): Promise<WaitBegun> {
    const em = deps.orm.em.fork();
    const live = await writeAndRead(em, input.state);
    if (!live) return null;
    const { contactId, stepStartedAt } = live.execution;
    const event = await firstEventSince(em, contactId, input.eventName, stepStartedAt, input.used);
    return { since: stepStartedAt.toISOString(), event };
  },
});
