import type { Deps } from '../../../deps';
import { VERSION } from '../../../version';
import type { WebhookConfig } from '../../../../workflows/automation/definition';
import { Automation } from '../entities';
import { addressPolicy, WebhookRefused } from '../webhook/address-policy';
import { openWebhookSecret } from '../webhook/secret';
import { sendWebhook, WebhookRejected, type WebhookRequest, type WebhookResponse } from '../webhook/send';
import { DELIVERY_HEADER, SIGNATURE_HEADER, signatureOf } from '../webhook/signature';
import { ExecutionGone, StepFailed } from './errors';
import type { LiveExecution } from '../records';

/** A WEBHOOK request gives up after 10 s (docs/automations.md "WEBHOOK"). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

const BODYLESS = new Set(['GET', 'DELETE']);

/** What a WEBHOOK step sends without a configured body: the execution and its contact. */
function defaultPayload(live: LiveExecution, automation: Automation, stepId: string, context: Record<string, unknown>) {
  const { execution, contact } = live;
  return {
    type: 'workflow.webhook',
    workflow: { id: automation.id, name: automation.name },
    execution: { id: execution.id, stepId, entry: execution.entry },
    contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
    context,
  };
}

/** The workflow a WEBHOOK step belongs to (its name goes into the payload, its secret signs it). */
export async function webhookAutomation(deps: Deps, live: LiveExecution): Promise<Automation> {
  const automation = await deps.orm.em.fork().findOne(Automation, { id: live.execution.automationId });
  if (!automation) throw new ExecutionGone(live.execution.id);
  return automation;
}

/**
 * The signed request of a WEBHOOK step. A receiver can verify the X-Postwire-Signature and deduplicate retries
 * by X-Postwire-Delivery (`<executionId>:<stepId>`), which stays the same across attempts.
 */
export function webhookRequest(
  deps: Deps,
  live: LiveExecution,
  automation: Automation,
  step: { id: string; config: WebhookConfig },
  context: Record<string, unknown>,
): WebhookRequest {
  const { config } = step;
  const body = BODYLESS.has(config.method) ? null : JSON.stringify(config.body ?? defaultPayload(live, automation, step.id, context));
  const headers: Record<string, string> = {
    ...config.headers,
    'user-agent': `Postwire-Webhook/${VERSION}`,
    ...(body === null ? {} : { 'content-type': 'application/json' }),
    [SIGNATURE_HEADER]: signatureOf(openWebhookSecret(deps.config, automation), body),
    [DELIVERY_HEADER]: `${live.execution.id}:${step.id}`,
  };
  return { url: config.url, method: config.method, headers, body };
}

/**
 * WEBHOOK: one signed request. A refused address and a 4xx answer fail the step at once (StepFailed); a 5xx
 * or a network failure throws for a retry.
 */
export async function callWebhook(
  deps: Deps,
  live: LiveExecution,
  step: { id: string; config: WebhookConfig },
  context: Record<string, unknown>,
): Promise<WebhookResponse> {
  const request = webhookRequest(deps, live, await webhookAutomation(deps, live), step, context);
  try {
    return await sendWebhook(request, {
      dns: deps.dns,
      policy: addressPolicy(deps.config.WEBHOOK_ALLOW_PRIVATE),
      timeoutMs: WEBHOOK_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof WebhookRefused) throw new StepFailed(`Webhook refused: ${err.message}`);
    if (err instanceof WebhookRejected) throw new StepFailed(`${err.message}: ${JSON.stringify(err.body).slice(0, 500)}`);
    throw err;
  }
}

/**
 * A simulated WEBHOOK step's answer (docs/simulation.md): 2xx succeeds; anything else fails the step as the
 * real one ends, a 4xx at once and a 5xx after its retries (a simulation does not spend them).
 */
export function simulatedWebhookResponse(request: WebhookRequest, answer: { status: number; body?: unknown }): WebhookResponse {
  const body = answer.body ?? '';
  if (answer.status < 200 || answer.status > 299) {
    const retried = answer.status >= 500 ? ' (after its retries)' : '';
    throw new StepFailed(`The webhook answered ${answer.status}${retried}: ${JSON.stringify(body).slice(0, 500)}`);
  }
  return { status: answer.status, body, url: request.url };
}
