import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict, notFound } from '../../http/errors';
import { isIgnoredKey } from './custom-fields';
import { MAX_DATA_DEPTH, MAX_KEY_LENGTH } from './data-limits';
import { ContactField, type FieldType } from './entities';
import { isoSql } from '../../db/iso-sql';

/**
 * Field descriptors for `GET /contacts/fields` and friends. Standard fields are named as they are
 * (`email`); custom ones as `data.<key>`, where dots in the key step into nested objects.
 */

interface StandardField {
  kind: 'standard';
  field: string;
  type: FieldType;
  /** The value as JSON, so that grouped values come back typed. */
  json: string;
}

interface CustomField {
  kind: 'custom';
  field: string;
  key: string;
}

const iso = (column: string) => `to_jsonb(${isoSql(column)})`;

const STANDARD: StandardField[] = [
  { kind: 'standard', field: 'email', type: 'string', json: 'to_jsonb(c."email")' },
  { kind: 'standard', field: 'subscribed', type: 'boolean', json: 'to_jsonb(c."subscribed")' },
  { kind: 'standard', field: 'createdAt', type: 'date', json: iso('c."created_at"') },
  { kind: 'standard', field: 'updatedAt', type: 'date', json: iso('c."updated_at"') },
];

/** `data.plan` (or a bare `plan`) is a custom field; the four core names are standard. */
export function parseField(field: string): StandardField | CustomField {
  const standard = STANDARD.find((s) => s.field === field);
  if (standard) return standard;
  const key = field.startsWith('data.') ? field.slice('data.'.length) : field;
  // A path beyond the limits of data names no field a project can have.
  const parts = key.split('.');
  if (parts.length > MAX_DATA_DEPTH || parts.some((part) => part === '' || part.length > MAX_KEY_LENGTH)) throw notFound('Field');
  return { kind: 'custom', field: `data.${key}`, key };
}

const PATH = `string_to_array(?, '.')`;

export interface FieldDescriptor {
  field: string;
  type: FieldType;
  isCustom: boolean;
  coverage: number;
}

/**
 * The project's fields with their coverage, from the field catalog alone: contact_fields for the types,
 * contact_field_counts and contact_counts for the shares (migration 0030). No contact is read, so the cost is
 * that of the catalog (at most 1,000 fields), whatever the number of contacts.
 */
export async function listFields(em: EntityManager, projectId: string): Promise<FieldDescriptor[]> {
  const [[totalRow], custom] = await Promise.all([
    em.execute<{ n: string }[]>('select coalesce(sum("n"), 0) as n from contact_counts where "project_id" = ?', [projectId]),
    em.execute<{ key: string; type: FieldType; n: string }[]>(
      `select f."key", f."type", coalesce((select sum(c."n") from contact_field_counts c where c."project_id" = f."project_id" and c."key" = f."key"), 0) as n
       from contact_fields f where f."project_id" = ? order by f."key"`,
      [projectId],
    ),
  ]);
  const total = Number(totalRow?.n ?? 0);
  const share = (n: number) => (total === 0 ? 0 : Math.min(1, Math.max(0, n / total)));
  return [
    ...STANDARD.map((s) => ({ field: s.field, type: s.type, isCustom: false, coverage: share(total) })),
    ...custom.map((f) => ({ field: `data.${f.key}`, type: f.type, isCustom: true, coverage: share(Number(f.n)) })),
  ];
}

/**
 * Declares a custom field before any contact has it, so that segments, workflows and imports see its type
 * from the start. The type is final, as for an inferred one (rule 9). A path that is a field, that lies
 * under one (`plan.tier` under a `plan` value) or that has fields under it (`profile` over `profile.tier`)
 * is 409: a field is a leaf. The project's limit of 1,000 fields is the database's (migration 0030).
 */
export async function createField(em: EntityManager, projectId: string, key: string, type: FieldType): Promise<FieldDescriptor> {
  const parts = key.split('.');
  if (isIgnoredKey(parts[0]!)) {
    throw badRequest(`${parts[0]} is a reserved key: values under it are never stored in data`, {
      suggestion: 'Pick another key; email, subscribed, createdAt and updatedAt are standard fields.',
    });
  }
  const above = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('.'));
  const [created] = await em.execute<Array<{ key: string }>>(
    `insert into contact_fields ("project_id", "key", "type", "created_at")
     select ?, ?, ?, now()
     where not exists (
       select 1 from contact_fields where "project_id" = ? and ("key" in (select jsonb_array_elements_text(?::jsonb)) or "key" like ?))
     on conflict ("project_id", "key") do nothing
     returning "key"`,
    [projectId, key, type, projectId, JSON.stringify([key, ...above]), `${likeEscape(key)}.%`],
  );
  if (!created) {
    throw conflict(`data.${key} is already a field, or lies under or over one`, { field: `data.${key}` });
  }
  return { field: `data.${key}`, type, isCustom: true, coverage: 0 };
}

async function requireKnown(em: EntityManager, projectId: string, field: CustomField): Promise<void> {
  const known = await em.count(ContactField, { projectId, $or: [{ key: field.key }, { key: { $like: `${likeEscape(field.key)}.%` } }] });
  if (known === 0) throw notFound('Field');
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export const MAX_VALUES = 100;

/**
 * Projects with more contacts than this have their values counted over their newest contacts this many,
 * with counts scaled to the whole project: a bounded read (an index range and this many rows) instead of a
 * scan of every contact, and no per-value counter for writes to keep (docs/contacts.md "Field catalog").
 */
export const VALUES_SAMPLE = 20_000;

const contactTotal = async (em: EntityManager, projectId: string) => {
  const [row] = await em.execute<{ n: string }[]>('select coalesce(sum("n"), 0) as n from contact_counts where "project_id" = ?', [
    projectId,
  ]);
  return Number(row?.n ?? 0);
};

/** The most frequent values of a field, most frequent first. */
export async function fieldValues(em: EntityManager, projectId: string, name: string): Promise<Array<{ value: unknown; count: number }>> {
  const field = parseField(name);
  if (field.kind === 'custom') await requireKnown(em, projectId, field);
  const [expr, exprParams] = field.kind === 'standard' ? [field.json, []] : [`c."data" #> ${PATH}`, [field.key]];
  const total = await contactTotal(em, projectId);
  const sampled = total > VALUES_SAMPLE;
  // LIMIT null is no limit: a project within the sample's size is counted whole.
  const rows = await em.execute<{ value: unknown; n: string }[]>(
    `select ${expr} as value, count(*) as n
     from (select * from contacts where "project_id" = ? order by "created_at" desc, "id" desc limit ?) c
     where ${expr} is not null
     group by 1 order by 2 desc, 1 limit ?`,
    [...exprParams, projectId, sampled ? VALUES_SAMPLE : null, ...exprParams, MAX_VALUES],
  );
  const scale = sampled ? total / VALUES_SAMPLE : 1;
  return rows.map((r) => ({ value: r.value, count: Math.round(Number(r.n) * scale) }));
}

/** Contacts a field deletion reads per statement: one range of contacts_project_created_index. */
const DELETE_CHUNK = 1_000;

// One range of the project's contacts, newest first, strictly after the previous range's last (created_at,
// id); the field leaves those of them that have it. Timestamps travel as text, microseconds intact.
const REMOVE_IN_RANGE = `
with range as (
  select "id", "created_at" from contacts
  where "project_id" = ? and ("created_at", "id") < (?::timestamptz, ?::uuid)
  order by "created_at" desc, "id" desc limit ?),
removed as (
  update contacts c set "data" = c."data" #- ${PATH} from range r
  where c."id" = r."id" and c."data" #> ${PATH} is not null returning 1),
last as (select "created_at"::text as "at", "id" from range order by "created_at", "id" limit 1)
select (select count(*) from removed) as removed, (select count(*) from range) as read, l."at", l."id"
from (select 1) one left join last l on true`;

/**
 * Removes a custom field from every contact of the project and forgets its type, so a later value infers
 * it afresh. References in segments and workflows stay; their conditions on it simply stop matching.
 *
 * The contacts are rewritten DELETE_CHUNK at a time, each range its own statement and commit: no statement
 * of a large project runs past STATEMENT_TIMEOUT_MS, and no contact stays locked for the whole deletion.
 * A deletion cut short (a failure, a restart) has removed the field from part of the contacts; calling it
 * again finishes it. Contacts written meanwhile keep what those writes set.
 */
export async function deleteField(em: EntityManager, projectId: string, name: string): Promise<{ field: string; deletedFrom: number }> {
  const field = parseField(name);
  if (field.kind === 'standard') {
    throw badRequest(`${field.field} is a standard field and cannot be deleted`, {
      suggestion: 'Only custom fields (data.<key>) can be deleted.',
    });
  }
  const forgotten = await em.nativeDelete(ContactField, {
    projectId,
    $or: [{ key: field.key }, { key: { $like: `${likeEscape(field.key)}.%` } }],
  });
  let deletedFrom = 0;
  let after = { at: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
  for (;;) {
    const [range] = await em.execute<Array<{ removed: string; read: string; at: string | null; id: string | null }>>(REMOVE_IN_RANGE, [
      projectId,
      after.at,
      after.id,
      DELETE_CHUNK,
      field.key,
      field.key,
    ]);
    deletedFrom += Number(range!.removed);
    if (Number(range!.read) < DELETE_CHUNK || !range!.at || !range!.id) break;
    after = { at: range!.at, id: range!.id };
  }
  if (forgotten === 0 && deletedFrom === 0) throw notFound('Field');
  return { field: field.field, deletedFrom };
}
