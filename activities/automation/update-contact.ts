import type { Deps } from '../../src/deps';
import { applyContactUpdate, applySimulatedContactUpdate } from '../../src/modules/automations/run/update-contact';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import type { UpdateContactConfig } from '../../workflows/automation/definition';
import { asActivity, enter, enterSimulation, type StepInput } from './step';

export const updateContactActivities = (deps: Deps) => ({
  async updateAutomationContact(input: StepInput<UpdateContactConfig>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return applyContactUpdate(em, await enter(em, input.state), input.config);
    });
  },
});

/** Applies the update to the simulated contact and keeps the contact as it is after the step. */
export const simulatedUpdateContactActivities = (runs: SimulationRuns) => ({
  async updateAutomationContact(input: StepInput<UpdateContactConfig>) {
    return asActivity(async () => {
      const run = enterSimulation(runs, input.state);
      const afterMs = run.stepElapsed(input.state);
      const { flip, ...result } = applySimulatedContactUpdate(run.contact, input.config, new Date(run.realOrigin + afterMs));
      if (flip) run.recorded.push({ name: flip, afterMs });
      run.product(input.stepId).contact = { subscribed: run.contact.subscribed, data: { ...run.contact.data } };
      return result;
    });
  },
});
