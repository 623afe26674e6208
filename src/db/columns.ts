import { p } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export const newId = () => randomUUID();

/**
 * The columns of a row that is written once and never updated (an event, a transition): a UUID v4 key,
 * assigned at flush (pass `id: newId()` to `em.create` when another row must reference it in the same flush),
 * and the UTC time of its insert.
 */
export const insertedColumns = {
  id: p
    .uuid()
    .primary()
    .onCreate(() => randomUUID()),
  createdAt: p.datetime().onCreate(() => new Date()),
};

/** Columns every updatable table shares: those of an inserted row, and the UTC time of its last update. */
export const baseColumns = {
  ...insertedColumns,
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
};
