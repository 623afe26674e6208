import type { ApiFailure } from '../request';

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const cell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value as string);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/**
 * A row's columns: its scalar fields (id first), then those of the records it holds as `parent.key` (an activity's
 * `contact.email` and `email.subject`: who got what), their ids left out, at most seven in all.
 */
function columnsOf(first: Record<string, unknown>): string[] {
  const own = Object.keys(first)
    .filter((k) => isScalar(first[k]))
    .sort((a, b) => Number(b === 'id') - Number(a === 'id'));
  const nested = Object.entries(first).flatMap(([parent, value]) =>
    isRecord(value) ? Object.keys(value).flatMap((k) => (k !== 'id' && isScalar(value[k]) ? [`${parent}.${k}`] : [])) : [],
  );
  return [...own, ...nested].slice(0, 7);
}

const valueAt = (row: unknown, column: string): unknown => {
  if (!isRecord(row)) return undefined;
  const [parent, key] = column.split('.') as [string, string | undefined];
  if (key === undefined || column in row) return row[column];
  const inner = row[parent];
  return isRecord(inner) ? inner[key] : undefined;
};

/** Rows as a table of their scalar fields and those of the records they hold (columnsOf). */
function table(rows: unknown[]): string {
  if (rows.length === 0) return '(none)';
  const first = rows.find(isRecord);
  if (!first) return rows.map((r) => JSON.stringify(r)).join('\n');
  const columns = columnsOf(first);
  const cells = rows.map((r) => columns.map((c) => cell(valueAt(r, c))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

const keyValues = (value: Record<string, unknown>) =>
  Object.entries(value)
    .map(([k, v]) => `${k}: ${isScalar(v) ? String(v as string) : JSON.stringify(v)}`)
    .join('\n');

/** An answer for a person: the envelope's message first, lists as tables (with what paging says), objects as `key: value` lines. */
export function readable(body: unknown, status: number): string {
  if (body === null || body === '') return `Done (HTTP ${status}).`;
  const enveloped = isRecord(body) && body.success === true && 'data' in body;
  if (enveloped && typeof body.message === 'string') return `${body.message}\n\n${readable(body.data, status)}`;
  const value = enveloped ? body.data : body;
  if (Array.isArray(value)) return table(value);
  if (isRecord(value) && Array.isArray(value.data)) {
    const { data, ...paging } = value;
    const notes = Object.entries(paging)
      .filter(([, v]) => isScalar(v))
      .map(([k, v]) => `${k}: ${String(v as string)}`);
    return [table(data), ...(notes.length ? ['', notes.join(', ')] : [])].join('\n');
  }
  return isRecord(value) ? keyValues(value) : String(value as string);
}

/** The API's error for a person: what failed, the fields at fault, and what to do. */
export function readableFailure(failure: ApiFailure): string {
  const lines = [`Error: ${failure.message} (${failure.code}, HTTP ${failure.statusCode})`];
  for (const e of failure.errors ?? []) lines.push(`  ${e.field}: ${e.message}`);
  if (failure.suggestion) lines.push(`Suggestion: ${failure.suggestion}`);
  if (failure.statusCode === 401) lines.push("Check POSTWIRE_API_KEY (or apiKey in the config file): the project's secret key, sk_….");
  if (failure.requestId) lines.push(`Request id: ${failure.requestId}`);
  return lines.join('\n');
}
