import type { WebhookDelivery, WebhookEndpoint } from './entities';
import type { DeliveryResponse, EndpointResponse } from './schemas';
import { maskWebhookSecret } from './secret';
import type { DeliveryRow } from './service';

/** The secret appears in full only when `fullSecret` is given: the responses that create or rotate it. */
export function serializeEndpoint(e: WebhookEndpoint, fullSecret?: string): EndpointResponse {
  return {
    id: e.id,
    url: e.url,
    description: e.description ?? null,
    events: e.events,
    enabled: e.enabled,
    secret: fullSecret ?? maskWebhookSecret(),
    disabledReason: e.disabledReason ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

const iso = (value: Date | string | null | undefined) => (value == null ? null : new Date(value).toISOString());

export function serializeDeliveryRow(r: DeliveryRow): DeliveryResponse {
  return {
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    lastAttemptAt: iso(r.last_attempt_at),
    nextAttemptAt: iso(r.next_attempt_at),
    createdAt: iso(r.created_at)!,
  };
}

export function serializeDelivery(d: WebhookDelivery): DeliveryResponse {
  return {
    id: d.id,
    eventId: d.eventId ?? null,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: d.createdAt.toISOString(),
  };
}
