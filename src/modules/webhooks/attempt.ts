import http from 'node:http';
import https from 'node:https';
import type { Deps } from '../../deps';
import { VERSION } from '../../version';
import { addressPolicy } from '../automations/webhook/address-policy';
import { sendWebhook, WebhookRejected, WebhookServerError } from '../automations/webhook/send';
import { standardWebhookHeaders } from './signature';

/**
 * Deliveries to one endpoint go one after the other, so a kept-alive connection per endpoint saves a TCP (and
 * TLS) handshake per delivery. A connection is opened to the address the policy checked, and reused only for
 * the same host and port.
 */
// An idle connection is closed after 2 s, before receivers' usual keep-alive timeouts (5 s and up) would close it under a request.
const kept = { keepAlive: true, maxSockets: 4, timeout: 2_000 };
const agents = { http: new http.Agent(kept), https: new https.Agent(kept) };

/** A delivery request gives up after 10 s, redirects included (docs/webhooks.md). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  at: Date;
}

/**
 * One signed POST, under the WEBHOOK step's rules: the address policy checks every hop (SSRF), redirects are
 * followed by hand, the whole exchange times out. Any failure is an outcome, never thrown: the caller decides
 * what a failure means (a retry for the queue, a report for a test).
 */
export async function attemptDelivery(
  deps: Pick<Deps, 'dns' | 'config'>,
  request: { url: string; webhookId: string; body: string; secrets: readonly string[] },
): Promise<AttemptOutcome> {
  const at = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': `Postwire-Webhook/${VERSION}`,
    ...standardWebhookHeaders(request.secrets, request.webhookId, at, request.body),
  };
  try {
    const res = await sendWebhook(
      { url: request.url, method: 'POST', headers, body: request.body },
      { dns: deps.dns, policy: addressPolicy(deps.config.WEBHOOK_ALLOW_PRIVATE), timeoutMs: DELIVERY_TIMEOUT_MS, agents },
    );
    return { ok: true, statusCode: res.status, error: null, at };
  } catch (err) {
    const statusCode = err instanceof WebhookRejected || err instanceof WebhookServerError ? err.status : null;
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, statusCode, error: message.slice(0, 1000), at };
  }
}
