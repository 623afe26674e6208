import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    projectId: p.uuid().primary(),
    key: p.string().primary(),
    method: p.string(),
    path: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    /** Null while the first request with this key is still in flight. */
    statusCode: p.integer().nullable(),
  },
});
export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
