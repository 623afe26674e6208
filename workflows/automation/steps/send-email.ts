import { patched } from '@temporalio/workflow';
import { HOLD_PATCH } from '../hold';
import { stepActivities } from './activities';
import { done, stepInput, type WorkflowStep } from './step';

export const sendEmail: WorkflowStep<'SEND_EMAIL'> = {
  results: ['done'],
  detail: (config) => `template ${config.templateId}`,
  run: async (step, env) => {
    const activities = stepActivities(env.summary);
    const { held, ...sent } = await activities.sendAutomationEmail(stepInput(step, env));
    // Runs recorded before holds existed never got `held`, so they replay as they ran.
    if (held && patched(HOLD_PATCH)) {
      await env.hold.whileSuspended(env.summary, held, () => activities.projectSuspension(env.projectId));
    }
    return done(sent);
  },
};
