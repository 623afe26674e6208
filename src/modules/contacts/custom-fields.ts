import type { EntityManager } from '@mikro-orm/postgresql';
import { MAX_ARRAY_ELEMENTS, MAX_DATA_DEPTH, MAX_DATA_KEYS, MAX_KEY_LENGTH, MAX_PATH_LENGTH } from './data-limits';
import type { FieldType } from './entities';

/**
 * The custom-field rules of docs/contacts.md "Custom fields (`data`)", in one place for every writer of `data`
 * (/v1/track, /v1/send, the contacts endpoints, CSV import, UPDATE_CONTACT). `toDataPatch` is pure;
 * `recordFieldTypes` persists the type each field infers from its first non-null value.
 */

/** Rule 6: silently dropped. Rule 7: the core fields live outside `data`, so they are dropped too. */
const IGNORED_KEYS = new Set([
  'id',
  'plunk_id',
  'plunk_email',
  'email',
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
  'subscribed',
  'createdAt',
  'updatedAt',
]);

/** A top-level key that no write of `data` ever stores (rules 6 and 7). */
export const isIgnoredKey = (key: string) => IGNORED_KEYS.has(key);

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
function isWrapped(v: unknown): v is Wrapped {
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

export type DataLimitCode = 'too_many_keys' | 'key_too_long' | 'too_deep' | 'array_too_long';

export interface DataLimitIssue {
  /** Keys from `data` down to the offending one; empty for the object as a whole. */
  path: string[];
  code: DataLimitCode;
  message: string;
}

const LIMIT_MESSAGES: Record<DataLimitCode, string> = {
  too_many_keys: `data holds at most ${MAX_DATA_KEYS} keys, nested keys included`,
  key_too_long: `A data key is at most ${MAX_KEY_LENGTH} characters`,
  too_deep: `A data path is at most ${MAX_DATA_DEPTH} keys deep (data.a.b.c.d.e)`,
  array_too_long: `An array in data holds at most ${MAX_ARRAY_ELEMENTS.toLocaleString('en')} elements`,
};

/**
 * The limits of `data` (docs/contacts.md "Limits", data-limits.ts): the first breach of each, or none. Every key
 * of every object counts, inside arrays too; an array longer than the limit is not looked into; the
 * `{ value, persistent }` wrapper is transparent (its two keys are syntax, its value's keys count). Stops
 * counting past the limit, so a huge object costs no more than a small one over it.
 */
export function dataLimitIssues(data: Record<string, unknown>): DataLimitIssue[] {
  const issues = new Map<DataLimitCode, DataLimitIssue>();
  let keys = 0;
  const flag = (code: DataLimitCode, path: string[]) => {
    if (!issues.has(code)) issues.set(code, { path, code, message: LIMIT_MESSAGES[code] });
  };
  const visitObject = (object: object, path: string[]): void => {
    for (const [key, inner] of Object.entries(object)) {
      if (++keys > MAX_DATA_KEYS) return flag('too_many_keys', []);
      const at = [...path, key];
      if (key.length > MAX_KEY_LENGTH) flag('key_too_long', at);
      if (at.length > MAX_DATA_DEPTH) flag('too_deep', at);
      visit(inner, at);
    }
  };
  const visit = (value: unknown, path: string[]): void => {
    if (keys > MAX_DATA_KEYS || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY_ELEMENTS) return flag('array_too_long', path);
      for (const item of value) visit(item, path);
    } else if (isWrapped(value)) visit(value.value, path);
    else visitObject(value, path);
  };
  visitObject(data, []);
  return [...issues.values()];
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
