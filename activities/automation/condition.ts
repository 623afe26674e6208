import type { Deps } from '../../src/deps';
import type { FilterTree } from '../../src/modules/filters/schemas';
import { evaluateCondition, evaluateSimulatedCondition } from '../../src/modules/automations/run/condition';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { asActivity, enter, enterSimulation, type StepInput } from './step';

export const conditionActivities = (deps: Deps) => ({
  async evaluateAutomationCondition(input: StepInput<FilterTree>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return evaluateCondition(em, await enter(em, input.state), input.config, input.context);
    });
  },
});

export const simulatedConditionActivities = (deps: Deps, runs: SimulationRuns) => ({
  async evaluateAutomationCondition(input: StepInput<FilterTree>) {
    return asActivity(async () => {
      const run = enterSimulation(runs, input.state);
      return evaluateSimulatedCondition(deps.orm.em.fork(), run, input.state, input.config, input.context);
    });
  },
});
