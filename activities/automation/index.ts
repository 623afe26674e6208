import type { Deps } from '../../src/deps';
import { writeMirror, type MirrorState } from '../../src/modules/automations/records';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { conditionActivities, simulatedConditionActivities } from './condition';
import { sendEmailActivities, simulatedSendEmailActivities } from './send-email';
import { simulatedUpdateContactActivities, updateContactActivities } from './update-contact';
import { simulatedWaitForEventActivities, waitForEventActivities } from './wait-for-event';
import { simulatedWebhookActivities, webhookActivities } from './webhook';

/** The automation workflow's activities: the mirror write, and each step type's own (one line per type that has any). */
export function createAutomationActivities(deps: Deps) {
  return {
    /** The workflow's state, mirrored into the execution record (a local activity). False: nothing left to do. */
    async saveAutomationState(state: MirrorState): Promise<boolean> {
      return writeMirror(deps.orm.em.fork(), state);
    },
    ...sendEmailActivities(deps),
    ...waitForEventActivities(deps),
    ...conditionActivities(deps),
    ...webhookActivities(deps),
    ...updateContactActivities(deps),
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;

/**
 * The same activities for simulations (docs/simulation.md), each type's simulated one beside its real one:
 * the real deciding logic over the simulation's contact, events and answers, writing nothing of the project.
 */
export function createSimulatedAutomationActivities(deps: Deps, runs: SimulationRuns) {
  return {
    /** The workflow's state, kept for the simulation's answer. False: the simulation has answered already. */
    async saveAutomationState(state: MirrorState): Promise<boolean> {
      const run = runs.find(state.executionId);
      run?.record(state);
      return run !== undefined;
    },
    ...simulatedSendEmailActivities(deps, runs),
    ...simulatedWaitForEventActivities(runs),
    ...simulatedConditionActivities(deps, runs),
    ...simulatedWebhookActivities(deps, runs),
    ...simulatedUpdateContactActivities(runs),
  } satisfies Record<keyof AutomationActivities, unknown>;
}
