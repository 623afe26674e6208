import type { EntityManager } from '@mikro-orm/postgresql';
import { MAX_PATH_LENGTH } from './data-limits';
import type { FieldType } from './entities';

/**
 * api.md "Custom-field rules", in one place for every writer of `data` (/v1/track, /v1/send, the contacts
 * endpoints, CSV import, UPDATE_CONTACT). `toDataPatch` is pure; `recordFieldTypes` persists rule 9.
 */

/** Rule 6: silently dropped. Rule 7: the core fields live outside `data`, so they are dropped too. */
const IGNORED_KEYS = new Set([
  'id', 'plunk_id', 'plunk_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl',
  'subscribed', 'createdAt', 'updatedAt',
]);

export type DataInput = Record<string, unknown>;

export interface DataPatch {
  /** Keys to store, each replacing the key's previous value (rules 1, 2, 8). */
  set: Record<string, unknown>;
  /** Keys to delete (rule 3). */
  unset: string[];
  /** Values sent as `{ value, persistent: false }`: template variables of this request only (rule 5). */
  variables: Record<string, unknown>;
}

interface Wrapped {
  value: unknown;
  persistent: boolean;
}

/** `{ value, persistent }` and nothing else: the wrapper of rule 5 (`persistent: true` stores the value). */
export function isWrapped(v: unknown): v is Wrapped {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 2 && 'value' in v && 'persistent' in v && typeof (v as Wrapped).persistent === 'boolean';
}

export function toDataPatch(data: DataInput | undefined): DataPatch {
  const patch: DataPatch = { set: {}, unset: [], variables: {} };
  for (const [key, raw] of Object.entries(data ?? {})) {
    if (IGNORED_KEYS.has(key)) continue;
    if (isWrapped(raw) && !raw.persistent) {
      patch.variables[key] = raw.value;
      continue;
    }
    const value = isWrapped(raw) ? raw.value : raw;
    if (value === '' || value === undefined) continue; // rule 4
    if (value === null) patch.unset.push(key);
    else patch.set[key] = value;
  }
  return patch;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{3})?Z)?$/;

/** Rule 9's table. */
export function inferType(value: unknown): FieldType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string' && DATE.test(value)) return 'date';
  return 'string';
}

/**
 * The type of every non-null leaf a patch stores. Nested objects are addressed by dotted paths, as filters
 * name them (`data.profile.tier`); arrays are leaves.
 */
export function fieldTypesOf(set: Record<string, unknown>): Map<string, FieldType> {
  const types = new Map<string, FieldType>();
  const visit = (path: string, value: unknown) => {
    if (value === null || value === undefined || path.length > MAX_PATH_LENGTH) return;
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) visit(`${path}.${k}`, v);
      return;
    }
    types.set(path, inferType(value));
  };
  for (const [key, value] of Object.entries(set)) visit(key, value);
  return types;
}

/**
 * Rule 9: the first type seen for a key wins, race-free across requests and processes. Keys are inserted in
 * a fixed order so that concurrent transactions lock them in the same order.
 */
export async function recordFieldTypes(em: EntityManager, projectId: string, types: Map<string, FieldType>): Promise<void> {
  if (types.size === 0) return;
  const rows = [...types].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, type]) => ({ key, type }));
  await em.execute(
    `insert into contact_fields ("project_id", "key", "type", "created_at")
     select ?, f.key, f.type, now() from jsonb_to_recordset(?::jsonb) as f(key text, type text)
     on conflict ("project_id", "key") do nothing`,
    [projectId, JSON.stringify(rows)],
  );
}
