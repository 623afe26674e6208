import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import type { FilterTree } from '../../src/modules/filters/schemas';
import type { QuickWork } from '../../src/modules/automations/run/advance';
import { evaluateCondition, evaluateSimulatedCondition } from '../../src/modules/automations/run/condition';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { asActivity, enter, simulationOf, type StepInput } from './step';

/** CONDITION in advanceAutomation: the branch is its output. */
export const conditionWork =
  (em: EntityManager): QuickWork<'CONDITION'> =>
  async (step, { live, context }) => ({ output: await evaluateCondition(em, live, step.config, context) });

export const simulatedConditionWork =
  (deps: Deps, runs: SimulationRuns): QuickWork<'CONDITION'> =>
  async (step, { state, context }) => ({
    output: await evaluateSimulatedCondition(deps.orm.em.fork(), simulationOf(runs, state), state, step.config, context),
  });

/** The step's own local activity, for runs started as `automation` (docs/automations.md "Versions"). */
export const conditionActivities = (deps: Deps) => ({
  async evaluateAutomationCondition(input: StepInput<FilterTree>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return evaluateCondition(em, await enter(em, input.state), input.config, input.context);
    });
  },
});
