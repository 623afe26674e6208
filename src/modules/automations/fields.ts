import type { EntityManager } from '@mikro-orm/postgresql';
import { inferType } from '../contacts/custom-fields';
import { listFields } from '../contacts/fields';
import { eventNames } from '../events/service';
import { EMAIL_ACTIVITY_EVENTS } from '../filters/fields';
import type { WorkflowFieldsResponse } from './schemas';

type FieldItem = WorkflowFieldsResponse['fields'][number];

/**
 * Data keys are read from the project's latest events, newest first, up to SAMPLED_EVENTS events and
 * SAMPLED_KEYS keys in all: enough to list what integrations send, and bounded in cost whatever the events
 * carry (at 100 keys an event, the latest 200 events).
 */
const SAMPLED_EVENTS = 5_000;
const SAMPLED_KEYS = 20_000;

const EVENT_DATA_KEYS = `
select k.key, array_agg(distinct k.name order by k.name) as names, (array_agg(k.value order by k.created_at desc))[1] as sample
from (
  select e."name", e."created_at", d.key, d.value
  from (select "name", "data", "created_at" from events where "project_id" = ? order by "created_at" desc limit ?) e
  cross join lateral jsonb_each(e.data) d
  where jsonb_typeof(d.value) <> 'null'
  limit ?) k
group by k.key order by k.key`;

/**
 * GET /workflows/fields: what a CONDITION filter can name. Contact fields with their inferred types; email
 * activity and the project's event names for the triggered* operators; and the keys of event data, which
 * value operators on `event.<key>` read from the execution context (docs/filters.md).
 */
export async function workflowFields(em: EntityManager, projectId: string): Promise<WorkflowFieldsResponse> {
  const [contact, names, keys] = await Promise.all([
    listFields(em, projectId),
    eventNames(em, projectId),
    em.execute<Array<{ key: string; names: string[]; sample: unknown }>>(EVENT_DATA_KEYS, [projectId, SAMPLED_EVENTS, SAMPLED_KEYS]),
  ]);
  const fields: FieldItem[] = [
    ...contact.map((f): FieldItem => ({ field: f.field, type: f.type, category: 'contact', isCustom: f.isCustom })),
    ...Object.keys(EMAIL_ACTIVITY_EVENTS).map((a): FieldItem => ({
      field: `email.${a}`,
      type: 'event',
      category: 'emailActivity',
      isCustom: false,
    })),
    ...names.map((n): FieldItem => ({ field: `event.${n.name}`, type: 'event', category: 'event', isCustom: true })),
    ...keys.map((k): FieldItem => ({
      field: `event.${k.key}`,
      type: inferType(k.sample),
      category: 'eventData',
      isCustom: true,
      eventNames: k.names,
    })),
  ];
  return { fields };
}
