import { z } from 'zod';
import { isIgnoredKey } from '../contacts/custom-fields';
import { MAX_DATA_DEPTH, MAX_KEY_LENGTH } from '../contacts/data-limits';
import { oneLineText } from '../../http/one-line';

/**
 * The fields of a signup form and how a submission's values become contact data (docs/consent.md "Signup
 * forms"): `email` is the contact's address, `data.<path>` a custom field.
 */

export const FIELD_INPUTS = ['email', 'text', 'number', 'date', 'checkbox'] as const;
export type FieldInput = (typeof FIELD_INPUTS)[number];

export interface FormField {
  key: string;
  label: string;
  type: FieldInput;
  required: boolean;
}

export const MAX_FIELDS = 20;
export const MAX_TEXT_VALUE = 1000;

/** Why a data key cannot be a form field's, or null. */
function dataKeyProblem(key: string): string | null {
  if (!key.startsWith('data.')) return 'A field key is `email` or `data.<key>`';
  const path = key.slice('data.'.length).split('.');
  if (path.some((part) => part === '' || part.length > MAX_KEY_LENGTH)) return `Each key of the path is 1-${MAX_KEY_LENGTH} characters`;
  if (path.length > MAX_DATA_DEPTH) return `A data path is at most ${MAX_DATA_DEPTH} keys deep`;
  if (isIgnoredKey(path[0]!)) return `data.${path[0]} is a reserved key that is never stored`;
  return null;
}

export const FormFieldSchema = z.object({
  key: z
    .string()
    .min(1)
    .max(520)
    .regex(/^[^\s"'<>&\u0000-\u001f]+$/, 'A field key has no spaces, quotes or angle brackets')
    .describe('`email`, or `data.<key>` (dots step into nested objects) for a custom field'),
  label: oneLineText(200),
  type: z.enum(FIELD_INPUTS).default('text').describe('The input; `email` is the type of the email field'),
  required: z.boolean().default(false),
});

/** The fields a form has when none are given: the address alone. */
export const DEFAULT_FIELDS: FormField[] = [{ key: 'email', label: 'Email', type: 'email', required: true }];

/** Problems of a list of fields, each with its path under `fields`. */
export function fieldsProblems(fields: readonly FormField[]): Array<{ path: (string | number)[]; message: string }> {
  const problems: Array<{ path: (string | number)[]; message: string }> = [];
  const emails = fields.filter((f) => f.key === 'email');
  if (emails.length !== 1) problems.push({ path: [], message: 'A form has exactly one field with key `email`' });
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.key)) problems.push({ path: [i, 'key'], message: `The key ${f.key} is used twice` });
    seen.add(f.key);
    if (f.key === 'email') {
      if (f.type !== 'email') problems.push({ path: [i, 'type'], message: 'The email field has type `email`' });
      if (!f.required) problems.push({ path: [i, 'required'], message: 'The email field is required' });
      return;
    }
    const problem = dataKeyProblem(f.key);
    if (problem) problems.push({ path: [i, 'key'], message: problem });
  });
  return problems;
}

export interface FieldValue {
  /** The value as typed, shown again when the form comes back with errors. */
  raw: string;
  error: string | null;
}

export interface ParsedSubmission {
  email: string | null;
  data: Record<string, unknown>;
  values: Record<string, FieldValue>;
  valid: boolean;
}

const EMAIL = z.email().max(320);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A value of one field: what to store (undefined: nothing), or why it is refused. */
function readValue(field: FormField, raw: string): { value?: unknown; error?: string } {
  const text = raw.trim();
  if (field.type === 'checkbox') {
    if (text === '') return field.required ? { error: `Please tick “${field.label}”` } : {};
    return { value: true };
  }
  if (text === '') return field.required ? { error: `Please fill in “${field.label}”` } : {};
  if (text.length > MAX_TEXT_VALUE) return { error: `“${field.label}” is at most ${MAX_TEXT_VALUE} characters` };
  switch (field.type) {
    case 'email':
      return EMAIL.safeParse(text).success ? { value: text.toLowerCase() } : { error: `“${field.label}” is not an email address` };
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: `“${field.label}” is not a number` };
    }
    case 'date':
      return DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
        ? { value: text }
        : { error: `“${field.label}” is not a date (YYYY-MM-DD)` };
    case 'text':
      return { value: text };
  }
}

/** Sets `value` at a dotted path of `data`. */
function place(data: Record<string, unknown>, path: string[], value: unknown): void {
  let at = data;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = (at[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
}

/** The submission's values read by the form's fields: the address, the data to store, each field's error. */
export function parseSubmission(fields: readonly FormField[], body: Record<string, string>): ParsedSubmission {
  const values: Record<string, FieldValue> = {};
  const data: Record<string, unknown> = {};
  let email: string | null = null;
  for (const field of fields) {
    const raw = body[field.key] ?? '';
    const read = readValue(field, raw);
    values[field.key] = { raw, error: read.error ?? null };
    if (read.value === undefined) continue;
    if (field.key === 'email') email = read.value as string;
    else place(data, field.key.slice('data.'.length).split('.'), read.value);
  }
  const valid = Object.values(values).every((v) => v.error === null) && email !== null;
  return { email, data, values, valid };
}
