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
  },
});
export type Event = InferEntity<typeof Event>;
