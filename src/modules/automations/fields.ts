import type { EntityManager } from '@mikro-orm/postgresql';
import { inferType } from '../contacts/custom-fields';
import { listFields } from '../contacts/fields';
import { eventNames } from '../events/service';
import { EMAIL_ACTIVITY_EVENTS } from '../filters/fields';
import type { WorkflowFieldsResponse } from './schemas';

type FieldItem = WorkflowFieldsResponse['fields'][number];

/** Data keys are read from the project's latest events: enough to list what integrations send, bounded in cost. */
const SAMPLED_EVENTS = 5_000;

const EVENT_DATA_KEYS = `
select k.key, array_agg(distinct e.name order by e.name) as names, (array_agg(k.value order by e.created_at desc))[1] as sample
from (select "name", "data", "created_at" from events where "project_id" = ? order by "created_at" desc limit ?) e
cross join lateral jsonb_each(e.data) k
where jsonb_typeof(k.value) <> 'null'
group by k.key order by k.key`;

/**
 * GET /workflows/fields: what a CONDITION filter can name. Contact fields with their inferred types; email
 * activity and the project's event names for the triggered* operators; and the keys of event data, which
 * value operators on `event.<key>` read from the execution context (decisions.md "Filters").
 */
export async function workflowFields(em: EntityManager, projectId: string): Promise<WorkflowFieldsResponse> {
  const [contact, names, keys] = await Promise.all([
    listFields(em, projectId),
    eventNames(em, projectId),
    em.execute<Array<{ key: string; names: string[]; sample: unknown }>>(EVENT_DATA_KEYS, [projectId, SAMPLED_EVENTS]),
  ]);
  const fields: FieldItem[] = [
    ...contact.map((f): FieldItem => ({ field: f.field, type: f.type, category: 'contact', isCustom: f.isCustom })),
    ...Object.keys(EMAIL_ACTIVITY_EVENTS).map((a): FieldItem => ({ field: `email.${a}`, type: 'event', category: 'emailActivity', isCustom: false })),
    ...names.map((n): FieldItem => ({ field: `event.${n.name}`, type: 'event', category: 'event', isCustom: true })),
    ...keys.map((k): FieldItem => ({ field: `event.${k.key}`, type: inferType(k.sample), category: 'eventData', isCustom: true, eventNames: k.names })),
  ];
  return { fields };
}
