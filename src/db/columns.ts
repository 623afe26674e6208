import { p } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export const newId = () => randomUUID();

/**
 * Columns every table shares: a UUID v4 key and UTC timestamps kept by the ORM. The key is assigned at
 * flush; pass `id: newId()` to `em.create` when another row must reference it in the same flush.
 */
export const baseColumns = {
  id: p
    .uuid()
    .primary()
    .onCreate(() => randomUUID()),
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
};
