import type { Deps } from '../../src/deps';
import { writeAndRead, type MirrorState } from '../../src/modules/automations/records';
import { firstEventSince } from '../../src/modules/automations/run/wait';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import type { AutomationEvent } from '../../workflows/automation/ids';

interface WaitInput {
  state: MirrorState;
  eventName: string;
  used: string[];
}
type WaitBegun = { since: string; event: AutomationEvent | null } | null;

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

/** The look-back over the simulation's events that arrived since the step began; later ones come as signals. */
export const simulatedWaitForEventActivities = (runs: SimulationRuns) => ({
  async beginAutomationWait(input: WaitInput): Promise<WaitBegun> {
    const run = runs.find(input.state.executionId);
    if (!run) return null;
    run.record(input.state);
    const since = run.stepElapsed(input.state);
    return { since: new Date(run.origin + since).toISOString(), event: run.firstEventBetween(input.eventName, since, since, input.used) };
  },
});
