import { stepActivities } from './activities';
import { done, stepInput, type WorkflowStep } from './step';

export const updateContact: WorkflowStep<'UPDATE_CONTACT'> = {
  results: ['done'],
  detail: () => '',
  async run(step, env) {
    const { variables, subscriptionChanged } = await stepActivities(env.summary).updateAutomationContact(stepInput(step, env));
    env.mirror.context = { ...env.mirror.context, ...variables };
    return done({ subscriptionChanged });
  },
};
