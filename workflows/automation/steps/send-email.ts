import { stepActivities } from './activities';
import { done, stepInput, type WorkflowStep } from './step';

export const sendEmail: WorkflowStep<'SEND_EMAIL'> = {
  results: ['done'],
  detail: (config) => `template ${config.templateId}`,
  run: async (step, env) => done(await stepActivities(env.summary).sendAutomationEmail(stepInput(step, env))),
};
