import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { executePrepared } from '../../db/prepared';
import { toDataPatch } from './custom-fields';
import { INSERT_EVENTS } from '../outbox/record';
import { normalizeEmail } from './email';
import { fieldTypeRows, type ContactInput, type UpsertOptions, type WrittenRow } from './write';

/**
 * `writeContactRow` for many contacts in one statement: one parse, one commit and one run of each
 * statement trigger (contact_counts, event_stats) for the lot instead of one per contact. Each row gets
 * exactly what its own statement would have written: the same patch rules, inferred types, flip event and
 * recorded event, in that order. A contact may appear only once (`on conflict do update` cannot touch a row
 * twice in one statement).
 */

export interface ContactWriteRequest {
  projectId: string;
  input: ContactInput;
  options: UpsertOptions;
}

// `excluded` carries only contacts' columns, so a conflicting row finds the rest of its input by the id it
// proposed, which is unique to it. Rows are locked in (project, email) order, as any other batch locks them.
const UPSERT_MANY = `
with input as (
  select * from jsonb_to_recordset(?::jsonb) as i("ord" int, "id" uuid, "project_id" uuid, "email" text,
    "subscribed" boolean, "set_subscribed" boolean, "set" jsonb, "unset" jsonb, "types" jsonb, "event" text, "event_data" jsonb)),
written as (
  insert into contacts as c ("id", "created_at", "updated_at", "project_id", "email", "subscribed", "data")
  select i."id", now(), now(), i."project_id", i."email", i."subscribed", i."set" from input i order by i."project_id", i."email"
  on conflict ("project_id", "email") do update set
    "subscribed" = coalesce((select i."set_subscribed" from input i where i."id" = excluded."id"), c."subscribed"),
    "data" = (c."data" || excluded."data") - array(select jsonb_array_elements_text(i."unset") from input i where i."id" = excluded."id"),
    "updated_at" = now()
  returning ${['id', 'created_at', 'updated_at', 'project_id', 'email', 'subscribed', 'data'].map((c) => `new."${c}"`).join(', ')},
    old."subscribed" as "was_subscribed"),
matched as (
  select i."ord", i."types", i."event", i."event_data", w.* from written w join input i on i."project_id" = w."project_id" and i."email" = w."email"),
fields as (
  insert into contact_fields ("project_id", "key", "type", "created_at")
  select distinct on (m."project_id", f.key) m."project_id", f.key, f.type, now()
  from matched m cross join jsonb_to_recordset(m."types") as f(key text, type text)
  order by m."project_id", f.key, m."ord"
  on conflict ("project_id", "key") do nothing),
recorded as (
  ${INSERT_EVENTS}
  select gen_random_uuid(), now(), m."project_id", m."id", e.name, e.data
  from matched m cross join lateral (
    select 1 as ord, case when m."subscribed" then 'contact.subscribed' else 'contact.unsubscribed' end as name, '{}'::jsonb as data
    where m."was_subscribed" is not null and m."was_subscribed" <> m."subscribed"
    union all
    select 2, m."event", m."event_data" where m."event" is not null
  ) e order by m."ord", e.ord
  returning "id", "contact_id", "name", "created_at"),
recorded_by_contact as (
  select r."contact_id", jsonb_agg(jsonb_build_object('id', r."id", 'name', r."name", 'createdAt', r."created_at")) as "recorded"
  from recorded r group by r."contact_id")
select m."ord", m."id", m."created_at", m."updated_at", m."project_id", m."email", m."subscribed", m."data", m."was_subscribed",
  coalesce(r."recorded", '[]') as "recorded"
from matched m left join recorded_by_contact r on r."contact_id" = m."id"`;

/** The rows written, in the order of `writes`. */
export async function writeContactRows(em: EntityManager, writes: readonly ContactWriteRequest[]): Promise<WrittenRow[]> {
  const input = writes.map(({ projectId, input: contact, options }, ord) => {
    const patch = toDataPatch(contact.data);
    return {
      ord, id: newId(), project_id: projectId, email: normalizeEmail(contact.email),
      subscribed: contact.subscribed ?? options.defaultSubscribed, set_subscribed: contact.subscribed ?? null,
      set: patch.set, unset: patch.unset, types: fieldTypeRows(patch),
      event: options.event?.name ?? null, event_data: options.event?.data ?? {},
    };
  });
  const rows = await executePrepared<WrittenRow & { ord: number }>(em, 'contact_upsert_many', UPSERT_MANY, [JSON.stringify(input)]);
  const byOrd = new Array<WrittenRow>(writes.length);
  for (const { ord, ...row } of rows) byOrd[ord] = row;
  return byOrd;
}
