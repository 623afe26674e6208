import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { insertedColumns } from '../../db/columns';

export const Event = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    ...insertedColumns,
    projectId: p.uuid(),
    contactId: p.uuid(),
    name: p.string(),
    data: p.json<Record<string, unknown>>(),
    /** Set once the event was handed to the automation engine (see the events outbox). */
    dispatchedAt: p.datetime().nullable(),
  },
});
export type Event = InferEntity<typeof Event>;
