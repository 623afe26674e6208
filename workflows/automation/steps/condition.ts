import { stepActivities } from './activities';
import { stepInput, type WorkflowStep } from './step';

export const conditionStep: WorkflowStep<'CONDITION'> = {
  results: ['branch'],
  detail: () => '',
  async run(step, env) {
    const { branch } = await stepActivities(env.summary).evaluateAutomationCondition(stepInput(step, env));
    return { result: { kind: 'branch', branch }, output: { branch } };
  },
};
