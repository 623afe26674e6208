import type { Deps } from '../../src/deps';
import { writeDefinition, writeMirror, type MirrorState } from '../../src/modules/automations/records';
import type { Definition } from '../../workflows/automation/definition';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { advanceActivities, simulatedAdvanceActivities } from './advance';
import { conditionActivities } from './condition';
import { sendEmailActivities, simulatedSendEmailActivities } from './send-email';
import { updateContactActivities } from './update-contact';
import { waitForEventActivities } from './wait-for-event';
import { simulatedWebhookActivities, webhookActivities } from './webhook';

/**
 * The automation workflow's activities: advanceAutomation (the quick steps, one local activity per stretch of
 * them), the end the workflow writes itself, WEBHOOK's call; then the per-step ones that runs started as the
 * workflow type `automation` still call (docs/automations.md "Versions").
 */
export function createAutomationActivities(deps: Deps) {
  return {
    ...advanceActivities(deps),
    ...webhookActivities(deps),
    /** For runs started as `automation`: the workflow's state, mirrored into the execution record. False: nothing left to do. */
    async saveAutomationState(state: MirrorState): Promise<boolean> {
      return writeMirror(deps.orm.em.fork(), state);
    },
    /** A run moved to another version (docs/automations.md "Versions"): its record takes the definition. False: gone or ended. */
    async adoptAutomationVersion(input: { executionId: string; definition: Definition }): Promise<boolean> {
      return writeDefinition(deps.orm.em.fork(), input.executionId, input.definition);
    },
    ...sendEmailActivities(deps),
    ...waitForEventActivities(deps),
    ...conditionActivities(deps),
    ...updateContactActivities(deps),
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;

/** What the workflow `automationV2` calls: what a simulation gives it. */
type CurrentActivities = Pick<
  AutomationActivities,
  'advanceAutomation' | 'finishAutomation' | 'callAutomationWebhook' | 'projectSuspension'
>;

/**
 * The same activities for simulations (docs/simulation.md), each type's simulated work beside its real one:
 * the real deciding logic over the simulation's contact, events and answers, writing nothing of the project.
 */
export function createSimulatedAutomationActivities(deps: Deps, runs: SimulationRuns) {
  return {
    ...simulatedAdvanceActivities(deps, runs),
    ...simulatedWebhookActivities(deps, runs),
    ...simulatedSendEmailActivities(),
  } satisfies Record<keyof CurrentActivities, unknown>;
}
