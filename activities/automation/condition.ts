import type { Deps } from '../../src/deps';
import type { FilterTree } from '../../src/modules/filters/schemas';
import { evaluateCondition } from '../../src/modules/automations/run/condition';
import { asActivity, enter, type StepInput } from './step';

export const conditionActivities = (deps: Deps) => ({
  async evaluateAutomationCondition(input: StepInput<FilterTree>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return evaluateCondition(em, await enter(em, input.state), input.config, input.context);
    });
  },
});
