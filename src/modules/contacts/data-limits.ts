import { isWrapped } from './custom-fields';

/**
 * decisions.md "Edges": the limits of a `data` object, which keep one request (and the field catalog it
 * feeds) small enough that no tenant's writes or reads of fields can stall the others. One owner for every
 * writer: the `ContactData` schema (track, send, contacts, UPDATE_CONTACT) and each CSV import row.
 */
export const MAX_DATA_KEYS = 100;
export const MAX_KEY_LENGTH = 100;
export const MAX_DATA_DEPTH = 5;
/** The longest dotted path within the limits: 5 keys of 100 characters and the dots between them. */
export const MAX_PATH_LENGTH = MAX_DATA_DEPTH * MAX_KEY_LENGTH + MAX_DATA_DEPTH - 1;
/** Distinct custom fields of a project; the database enforces it (migration 0029). */
export const MAX_CUSTOM_FIELDS = 1_000;
export const TOO_MANY_FIELDS_MESSAGE = `A project has at most ${MAX_CUSTOM_FIELDS} distinct custom fields`;

/** The refusal of migration 0029's trigger (SQLSTATE PWF01), from the driver or wrapped by MikroORM. */
export const isTooManyFieldsError = (err: unknown) => (err as { code?: unknown } | null)?.code === 'PWF01';

export type DataLimitCode = 'too_many_keys' | 'key_too_long' | 'too_deep';

export interface DataLimitIssue {
  /** Keys from `data` down to the offending one; empty for the object as a whole. */
  path: string[];
  code: DataLimitCode;
  message: string;
}

const MESSAGES: Record<DataLimitCode, string> = {
  too_many_keys: `data holds at most ${MAX_DATA_KEYS} keys, nested keys included`,
  key_too_long: `A data key is at most ${MAX_KEY_LENGTH} characters`,
  too_deep: `A data path is at most ${MAX_DATA_DEPTH} keys deep (data.a.b.c.d.e)`,
};

/**
 * The first breach of each limit, or none. Every key of every object counts, inside arrays too; the
 * `{ value, persistent }` wrapper is transparent (its two keys are syntax, its value's keys count). Stops
 * counting past the limit, so a huge object costs no more than a small one over it.
 */
export function dataLimitIssues(data: Record<string, unknown>): DataLimitIssue[] {
  const issues = new Map<DataLimitCode, DataLimitIssue>();
  let keys = 0;
  const flag = (code: DataLimitCode, path: string[]) => {
    if (!issues.has(code)) issues.set(code, { path, code, message: MESSAGES[code] });
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
    if (Array.isArray(value)) for (const item of value) visit(item, path);
    else if (isWrapped(value)) visit(value.value, path);
    else visitObject(value, path);
  };
  visitObject(data, []);
  return [...issues.values()];
}
