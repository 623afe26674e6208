import { Email } from '../users/schemas';
import { dataLimitIssues } from '../contacts/custom-fields';
import type { Columns } from './columns';

/**
 * What one CSV record becomes: a contact write, a skip (nothing to import, or an email an earlier row
 * already imports) or a failure with its reason. Pure; the stager numbers the rows and keeps `seen`.
 */

export type CsvValue = string | number | boolean;

export interface RowWrite {
  row: number;
  email: string;
  subscribed?: boolean;
  data: Record<string, CsvValue>;
}

export interface RowError {
  row: number;
  email: string;
  error: string;
}

export type RowVerdict = { kind: 'write'; write: RowWrite } | { kind: 'skip' } | { kind: 'error'; error: RowError };

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/**
 * CSV has no types; a cell reads as a number or boolean only when it says exactly that, so that rule 9
 * infers what a person would (`42` a number, `TRUE` a boolean) while `007`, `1.50` or a 20-digit ID keep
 * their spelling as strings.
 */
export function cellValue(raw: string): CsvValue {
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (/^-?\d/.test(raw) && String(Number(raw)) === raw) return Number(raw);
  return raw;
}

const shortened = (key: string) => (key.length > 40 ? `${key.slice(0, 40)}…` : key);

export function judgeRow(columns: Columns, record: string[], row: number, seen: Set<string>): RowVerdict {
  const cell = (index: number) => (record[index] ?? '').trim();
  const given = cell(columns.email);
  // The report is stored as JSON in PostgreSQL, which cannot hold NUL: the email is shown without it.
  const fail = (error: string): RowVerdict => ({ kind: 'error', error: { row, email: given.replaceAll('\u0000', ''), error } });
  if (record.every((value) => value.trim() === '')) return { kind: 'skip' };
  if (record.slice(columns.count).some((value) => value.trim() !== '')) {
    return fail(`The row has ${record.length} values but the header names ${columns.count} columns`);
  }
  const nul = record.findIndex((value) => value.includes('\u0000'));
  if (nul >= 0) return fail(`Column ${nul + 1} contains the NUL character (U+0000), which text cannot hold`);
  if (!given) return fail('The email is missing');
  const email = Email.safeParse(given);
  if (!email.success) return fail('Invalid email address');
  let subscribed: boolean | undefined;
  if (columns.subscribed !== null && cell(columns.subscribed) !== '') {
    const state = cell(columns.subscribed).toLowerCase();
    if (!TRUE.has(state) && !FALSE.has(state)) return fail('subscribed must be true or false');
    subscribed = TRUE.has(state);
  }
  if (seen.has(email.data)) return { kind: 'skip' };
  seen.add(email.data);
  const data: Record<string, CsvValue> = {};
  for (const { index, key } of columns.data) data[key] = cellValue(cell(index));
  // Empty cells are not stored (rule 4), so only the values a row gives count against the limits.
  const [breach] = dataLimitIssues(Object.fromEntries(Object.entries(data).filter(([, value]) => value !== '')));
  if (breach) return fail(breach.path.length ? `${breach.message}: ${shortened(breach.path.join('.'))}` : breach.message);
  return { kind: 'write', write: { row, email: email.data, ...(subscribed === undefined ? {} : { subscribed }), data } };
}
