import type { Deps } from '../../src/deps';
import { callWebhook, simulatedWebhookResponse, webhookAutomation, webhookRequest } from '../../src/modules/automations/run/webhook';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import type { WebhookConfig } from '../../workflows/automation/definition';
import { asActivity, enter, enterSimulation, type StepInput } from './step';

export const webhookActivities = (deps: Deps) => ({
  async callAutomationWebhook(input: StepInput<WebhookConfig>) {
    return asActivity(async () => {
      const live = await enter(deps.orm.em.fork(), input.state);
      const res = await callWebhook(deps, live, { id: input.stepId, config: input.config }, input.context);
      return { status: res.status, body: res.body, url: res.url };
    });
  },
});

/** Builds and signs the request as the real step does; the answer is the simulation's (`webhookResponses`, else 200). */
export const simulatedWebhookActivities = (deps: Deps, runs: SimulationRuns) => ({
  async callAutomationWebhook(input: StepInput<WebhookConfig>) {
    return asActivity(async () => {
      const run = enterSimulation(runs, input.state);
      const live = run.live(input.state);
      const request = webhookRequest(
        deps,
        live,
        await webhookAutomation(deps, live),
        { id: input.stepId, config: input.config },
        input.context,
      );
      const answer = run.webhookAnswers[input.stepId] ?? { status: 200 };
      const body: unknown = request.body === null ? null : JSON.parse(request.body);
      const { method, url, headers } = request;
      run.product(input.stepId).webhook = { method, url, headers, body, response: { status: answer.status, body: answer.body ?? null } };
      const res = simulatedWebhookResponse(request, answer);
      return { status: res.status, body: res.body, url: res.url };
    });
  },
});
