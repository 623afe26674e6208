import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { ApiError, conflict, notFound, validationError } from '../../http/errors';
import { offsetOf } from '../../http/offset-page';
import { callTemporal } from '../../temporal/unavailable';
import { startWebhookEndpoint, stopWebhookEndpoint, wakeWebhookEndpoint } from '../../temporal/webhooks';
import { addressPolicy, resolveTarget, WebhookRefused } from '../automations/webhook/address-policy';
import { attemptDelivery } from './attempt';
import { WebhookDelivery, WebhookEndpoint, type DeliveryStatus } from './entities';
import { newWebhookSecret, ROTATION_OVERLAP_MS, sealWebhookSecret, signingSecrets } from './secret';
import { replayInto } from './stream';
import { restartBackoff } from './queue';

/** Endpoints per project: each runs a delivery loop of its own. */
export const MAX_ENDPOINTS = 20;
/** Deliveries are kept 30 days, so a replay reaches back as far. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Deliveries one replay request queues at most. */
export const REPLAY_LIMIT = 10_000;

const missing = () => notFound('Webhook endpoint');

export async function findEndpoint(em: EntityManager, projectId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(WebhookEndpoint, { id, projectId });
  if (!endpoint) throw missing();
  return endpoint;
}

export const listEndpoints = (em: EntityManager, projectId: string) =>
  em.find(WebhookEndpoint, { projectId }, { orderBy: { createdAt: 'desc', id: 'desc' } });

/** What to do about a refused address (docs/webhooks.md "Trying webhooks locally"). */
const PRIVATE_REFUSED =
  'Webhook endpoints must be reachable on the public Internet: private, loopback and reserved addresses are refused. To try webhooks on this machine, npm start runs a webhook capture and allows loopback (WEBHOOK_ALLOW_PRIVATE=true, for development only).';

/**
 * The WEBHOOK step's address rules, applied when the URL is given: a host that is or resolves to a private,
 * loopback, link-local or reserved address is refused up front (delivery checks every request again). A
 * resolver that does not answer now is no reason to refuse.
 */
async function checkTarget(deps: Pick<Deps, 'dns' | 'config'>, url: string): Promise<void> {
  try {
    await resolveTarget(deps.dns, new URL(url).hostname, addressPolicy(deps.config.WEBHOOK_ALLOW_PRIVATE));
  } catch (err) {
    if (err instanceof WebhookRefused) {
      throw new ApiError(422, 'VALIDATION_ERROR', `url: ${err.message}`, {
        errors: [{ field: 'url', code: 'refused_address', message: err.message }],
        suggestion: PRIVATE_REFUSED,
      });
    }
  }
}

export interface EndpointInput {
  url: string;
  description?: string | null;
  events: string[];
  enabled: boolean;
}

/** Creates the endpoint and starts its delivery loop; returns it with its secret in full, the only time but a rotation. */
export async function createEndpoint(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  input: EndpointInput,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await checkTarget(deps, input.url);
  if ((await em.count(WebhookEndpoint, { projectId })) >= MAX_ENDPOINTS) {
    throw conflict(`A project has at most ${MAX_ENDPOINTS} webhook endpoints`, { limit: MAX_ENDPOINTS });
  }
  const id = newId();
  const secret = newWebhookSecret();
  const endpoint = em.create(WebhookEndpoint, {
    id,
    projectId,
    url: input.url,
    description: input.description ?? null,
    events: input.events,
    enabled: input.enabled,
    disabledReason: null,
    secret: sealWebhookSecret(deps.config, id, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
  });
  await em.flush();
  if (endpoint.enabled) {
    try {
      await callTemporal('the endpoint was not added', () => startWebhookEndpoint(deps.temporal, endpoint));
    } catch (err) {
      await em.remove(endpoint).flush();
      throw err;
    }
  }
  return { endpoint, secret };
}

export async function updateEndpoint(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
  input: Partial<EndpointInput>,
): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(em, projectId, id);
  if (input.url !== undefined) await checkTarget(deps, input.url);
  const resuming = input.enabled === true && !endpoint.enabled;
  const pausing = input.enabled === false && endpoint.enabled;
  if (input.url !== undefined) endpoint.url = input.url;
  if (input.description !== undefined) endpoint.description = input.description;
  if (input.events !== undefined) endpoint.events = input.events;
  if (input.enabled !== undefined) {
    endpoint.enabled = input.enabled;
    // Set by hand either way, the endpoint is no longer as the service left it.
    endpoint.disabledReason = null;
  }
  // Before the flush: a failure here leaves the endpoint as it was, never enabled without its loop started.
  if (resuming) await restartBackoff(em, endpoint.id);
  await em.flush();
  if (resuming) {
    try {
      await callTemporal('the endpoint was not enabled', () => startWebhookEndpoint(deps.temporal, endpoint));
    } catch (err) {
      endpoint.enabled = false;
      await em.flush();
      throw err;
    }
  }
  // A loop waiting for events ends at once instead of at its next look; not waited for (Temporal may be down).
  if (pausing) void wakeWebhookEndpoint(deps.temporal, endpoint).catch(() => undefined);
  return endpoint;
}

export async function deleteEndpoint(deps: Deps, em: EntityManager, projectId: string, id: string): Promise<void> {
  const endpoint = await findEndpoint(em, projectId, id);
  await em.remove(endpoint).flush();
  // The loop ends by itself when it finds the endpoint gone; stopping it now only saves it a look, so the
  // request does not wait for it (nor for Temporal to answer at all).
  void stopWebhookEndpoint(deps.temporal, id).catch((err: unknown) =>
    deps.logger.warn({ err, endpointId: id }, 'stopping a webhook loop failed'),
  );
}

/** A new secret; the previous one keeps signing beside it for ROTATION_OVERLAP_MS. Returns the new secret in full. */
export async function rotateSecret(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const endpoint = await findEndpoint(em, projectId, id);
  const [current] = signingSecrets(deps.config, endpoint);
  const secret = newWebhookSecret();
  endpoint.previousSecret = sealWebhookSecret(deps.config, id, current!, true);
  endpoint.previousSecretExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
  endpoint.secret = sealWebhookSecret(deps.config, id, secret);
  await em.flush();
  return { endpoint, secret };
}

/**
 * Sends a `webhook.test` message now, once, outside the queue (also to a disabled endpoint, to check a
 * receiver before enabling it), and records it in the log as SUCCEEDED or FAILED.
 */
export async function sendTestMessage(deps: Deps, em: EntityManager, projectId: string, id: string): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(em, projectId, id);
  const deliveryId = newId();
  const createdAt = new Date();
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: createdAt.toISOString(),
    data: { endpointId: endpoint.id, message: 'A test message from Postwire' },
  });
  const outcome = await attemptDelivery(deps, {
    url: endpoint.url,
    webhookId: deliveryId,
    body,
    secrets: signingSecrets(deps.config, endpoint),
  });
  const delivery = em.create(WebhookDelivery, {
    id: deliveryId,
    createdAt,
    endpointId: endpoint.id,
    eventId: null,
    replay: false,
    type: 'webhook.test',
    body,
    status: outcome.ok ? 'SUCCEEDED' : 'FAILED',
    attempts: 1,
    lastStatusCode: outcome.statusCode,
    lastError: outcome.error,
    lastAttemptAt: outcome.at,
    nextAttemptAt: null,
  });
  await em.flush();
  return delivery;
}

const FILTER = `"endpoint_id" = ? and (?::text is null or "status" = ?)`;
const PAGE = `
select "id", "event_id", "type", "status", "attempts", "last_status_code", "last_error", "last_attempt_at", "next_attempt_at", "created_at"
from webhook_deliveries where ${FILTER} order by "seq" desc limit ? offset ?`;
const COUNT = `select count(*)::int as n from webhook_deliveries where ${FILTER}`;

export interface DeliveryRow {
  id: string;
  event_id: string | null;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
}

/** The endpoint's log, newest first. */
export async function listDeliveries(
  em: EntityManager,
  projectId: string,
  id: string,
  query: { status?: DeliveryStatus; page: number; pageSize: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  await findEndpoint(em, projectId, id);
  const filter = [id, query.status ?? null, query.status ?? null];
  const [rows, [count]] = await Promise.all([
    em.execute<DeliveryRow[]>(PAGE, [...filter, query.pageSize, offsetOf(query)]),
    em.execute<{ n: number }[]>(COUNT, filter),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** Queues again the endpoint's events since `since` (docs/webhooks.md "Test messages, the log, replay") and wakes its loop. */
export async function replay(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
  since: Date,
): Promise<{ queued: number; nextSince: Date | null }> {
  const endpoint = await findEndpoint(em, projectId, id);
  const oldest = Date.now() - RETENTION_MS;
  if (since.getTime() < oldest || since.getTime() > Date.now()) {
    throw validationError([{ field: 'since', code: 'out_of_range', message: 'Must be within the last 30 days' }]);
  }
  const result = await replayInto(em, endpoint.id, since, REPLAY_LIMIT);
  // Not waited for: the loop also finds the queue at its next look.
  if (endpoint.enabled && result.queued > 0) {
    void wakeWebhookEndpoint(deps.temporal, endpoint).catch((err: unknown) =>
      deps.logger.warn({ err, endpointId: id }, 'waking a webhook loop failed'),
    );
  }
  return result;
}
