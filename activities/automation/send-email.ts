import type { Deps } from '../../src/deps';
import { sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SendEmailConfig } from '../../workflows/automation/definition';
import { asActivity, enter, type StepInput } from './step';

export const sendEmailActivities = (deps: Deps) => ({
  async sendAutomationEmail(input: StepInput<SendEmailConfig>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return sendStepEmail(deps.config, em, await enter(em, input.state), { id: input.stepId, config: input.config }, input.context);
    });
  },
});
