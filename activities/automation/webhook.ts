import type { Deps } from '../../src/deps';
import { callWebhook } from '../../src/modules/automations/run/webhook';
import type { WebhookConfig } from '../../workflows/automation/definition';
import { asActivity, enter, type StepInput } from './step';

export const webhookActivities = (deps: Deps) => ({
  async callAutomationWebhook(input: StepInput<WebhookConfig>) {
    return asActivity(async () => {
      const live = await enter(deps.orm.em.fork(), input.state);
      const res = await callWebhook(deps, live, { id: input.stepId, config: input.config }, input.context);
      return { status: res.status, body: res.body, url: res.url };
    });
  },
});
