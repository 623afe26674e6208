import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import type { QuickWork } from '../../src/modules/automations/run/advance';
import { applyContactUpdate, applySimulatedContactUpdate } from '../../src/modules/automations/run/update-contact';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import type { UpdateContactConfig } from '../../workflows/automation/definition';
import { asActivity, enter, simulationOf, type StepInput } from './step';

/** UPDATE_CONTACT in advanceAutomation: non-persistent values join the context. */
export const updateContactWork =
  (em: EntityManager): QuickWork<'UPDATE_CONTACT'> =>
  async (step, { live }) => {
    const { variables, subscriptionChanged } = await applyContactUpdate(em, live, step.config);
    return { output: { subscriptionChanged }, variables };
  };

/** Applies the update to the simulated contact and keeps the contact as it is after the step. */
export const simulatedUpdateContactWork =
  (runs: SimulationRuns): QuickWork<'UPDATE_CONTACT'> =>
  async (step, { state }) => {
    const run = simulationOf(runs, state);
    const afterMs = run.stepElapsed(state);
    const { flip, variables, subscriptionChanged } = applySimulatedContactUpdate(
      run.contact,
      step.config,
      new Date(run.realOrigin + afterMs),
    );
    if (flip) run.recorded.push({ name: flip, afterMs });
    run.product(step.id).contact = { subscribed: run.contact.subscribed, data: { ...run.contact.data } };
    return { output: { subscriptionChanged }, variables };
  };

/** The step's own local activity, for runs started as `automation` (docs/automations.md "Versions"). */
export const updateContactActivities = (deps: Deps) => ({
  async updateAutomationContact(input: StepInput<UpdateContactConfig>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return applyContactUpdate(em, await enter(em, input.state), input.config);
    });
  },
});
