import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

/**
 * Where a project's events are delivered (docs/webhooks.md). Its place in the event stream (cursor_txid,
 * cursor_seq) is kept by SQL alone (./stream.ts), so it is not mapped here.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    url: p.text(),
    description: p.text().nullable(),
    /** Event names and prefix patterns ending in `*`; empty selects every event. */
    events: p.json<string[]>(),
    enabled: p.boolean().default(true),
    disabledReason: p.text().nullable(),
    /** Sealed `whsec_…` (ENCRYPTION_KEY). */
    secret: p.text(),
    /** The secret before the last rotation, still signing beside the new one until it expires. */
    previousSecret: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
  },
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event (or a test message) for one endpoint: the delivery log. Its `seq` column (SQL only) orders the endpoint's queue. */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.uuid().primary(),
    createdAt: p.datetime(),
    endpointId: p.uuid(),
    eventId: p.uuid().nullable(),
    replay: p.boolean().default(false),
    type: p.string(),
    /** The exact bytes sent on every attempt. */
    body: p.text().lazy(),
    status: p.enum([...DELIVERY_STATUSES]).default('PENDING'),
    attempts: p.integer().default(0),
    /** Failed attempts since the endpoint was last enabled: they set the wait before the next one. */
    backoffAttempts: p.integer().default(0),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    nextAttemptAt: p.datetime().nullable(),
  },
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
