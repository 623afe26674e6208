import type { FieldType } from '../contacts/entities';

/**
 * How a stored JSON value reads as each field type. The SQL face mirrors these rules in the functions of
 * migration 0006 (pw_jsonb_text, pw_jsonb_number, pw_jsonb_boolean, pw_jsonb_timestamp); a value that does
 * not read as the field's type takes part in no comparison.
 */

/** The date forms a filter value takes (docs/filters.md "Choices"), with calendar ranges that PostgreSQL and JavaScript both accept. */
export const DATE_PATTERN = /^[1-9]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?Z)?$/;
export const NUMBER_PATTERN = /^-?(\d+(\.\d*)?|\.\d+)$/;

export const readText = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function readNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return typeof v === 'string' && NUMBER_PATTERN.test(v) ? Number(v) : undefined;
}

export function readBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

/** Epoch milliseconds of a date string; impossible days (2024-02-30) read as nothing, as in PostgreSQL. */
export function readDate(v: unknown): number | undefined {
  if (typeof v !== 'string' || !DATE_PATTERN.test(v)) return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().slice(0, 10) === v.slice(0, 10) ? ms : undefined;
}

/** The type a value would get if it were the first of its field (docs/contacts.md "Custom fields (`data`)"). */
export function typeOfValue(v: unknown): FieldType {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  return readDate(v) !== undefined ? 'date' : 'string';
}

/** A nested value of `data` or of an execution context; paths only descend through objects, never arrays. */
export function valueAt(root: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
