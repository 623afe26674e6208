import { proxyActivities } from '@temporalio/workflow';
import type { webhookActivities as webhookActivityFactory } from '../../../activities/automation/webhook';
import { done, stepInput, type WorkflowStep } from './step';

/**
 * docs/automations.md "WEBHOOK": each WEBHOOK attempt gives up after 10 s; network errors and 5xx are retried with backoff.
 * A regular activity: it waits on a third party, so it must not hold the workflow task.
 */
const webhookActivities = (summary: string) =>
  proxyActivities<ReturnType<typeof webhookActivityFactory>>({
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
    summary,
  });

export const webhook: WorkflowStep<'WEBHOOK'> = {
  results: ['done'],
  detail: (config) => `${config.method} ${config.url}`,
  kind: 'stop',
  run: async (step, env) => done(await webhookActivities(env.summary).callAutomationWebhook(stepInput(step, env))),
};
