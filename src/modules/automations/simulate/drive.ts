import type { SimulationSlot } from '../../../temporal/simulation-pool';
import { AUTOMATION_EVENT_SIGNAL, AUTOMATION_GOAL_SIGNAL, type AutomationInput } from '../../../../workflows/automation/ids';
import { reachesGoal } from '../goal';
import type { SimulationRun } from './run';

/** Real time a settled state is awaited after the clock stopped; a run still busy then is answered as it is. */
const SETTLE_MS = 5_000;

/**
 * Runs the automation workflow itself on a time-skipping test server: starts it, moves the server's clock to
 * each event's offset and signals the event (as the outbox consumer would: first the goal it reaches, if any;
 * one at offset 0 reaches it once the run has settled, a wait never takes it), then to the end of the simulated
 * span. The server skips time only while no task is pending, so everything due before an offset has happened
 * when the clock reaches it. A run still waiting at the end is left to the server: its next activity finds no
 * simulation and ends it (terminating it could stop the server's time skipping for good).
 */
export async function drive(slot: SimulationSlot, run: SimulationRun, input: AutomationInput, limitMs: number): Promise<void> {
  const { env } = slot;
  run.origin = await env.currentTimeMs();
  const handle = await env.client.workflow.start('automationV2', {
    taskQueue: slot.taskQueue,
    workflowId: `simulation:${run.id}`,
    args: [input],
  });
  const advanceTo = async (offsetMs: number) => {
    const ms = run.origin + offsetMs - (await env.currentTimeMs());
    if (ms > 0) await env.sleep(ms);
  };
  await run.whenSettled(SETTLE_MS);
  const { goal } = input.definition;
  for (const event of run.events) {
    if (event.afterMs > limitMs || run.state?.ended) continue;
    const reaches = goal !== undefined && !event.trigger && reachesGoal(goal, event, new Date(run.realOrigin + event.afterMs));
    if (event.afterMs === 0 && !reaches) continue;
    await advanceTo(event.afterMs);
    if (reaches) await handle.signal(AUTOMATION_GOAL_SIGNAL, run.delivered(event)).catch(() => undefined);
    if (event.afterMs > 0) await handle.signal(AUTOMATION_EVENT_SIGNAL, run.delivered(event)).catch(() => undefined);
    await run.whenSettled(SETTLE_MS);
  }
  if (!run.state?.ended) await advanceTo(limitMs);
  await run.whenSettled(SETTLE_MS);
}
