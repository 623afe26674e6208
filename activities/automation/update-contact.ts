import type { Deps } from '../../src/deps';
import { applyContactUpdate } from '../../src/modules/automations/run/update-contact';
import type { UpdateContactConfig } from '../../workflows/automation/definition';
import { asActivity, enter, type StepInput } from './step';

export const updateContactActivities = (deps: Deps) => ({
  async updateAutomationContact(input: StepInput<UpdateContactConfig>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return applyContactUpdate(em, await enter(em, input.state), input.config);
    });
  },
});
