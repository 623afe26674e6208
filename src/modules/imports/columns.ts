import { ApiError } from '../../http/errors';

/**
 * The header row of an import: which column holds the email (required), which the subscription state
 * (optional), and the data key every other column becomes, spaces and case kept. Columns with an empty
 * name carry nothing (spreadsheets export trailing empty columns).
 */
export interface Columns {
  email: number;
  subscribed: number | null;
  data: Array<{ index: number; key: string }>;
  count: number;
}

const MAX_KEY = 255;

const badHeader = (message: string, details?: Record<string, unknown>) =>
  new ApiError(400, 'BAD_REQUEST', message, {
    details,
    suggestion: 'The first row of the CSV names the columns: one of them must be email; every name at most once.',
  });

const named = (header: string[], wanted: string) => header.flatMap((name, index) => (name.trim().toLowerCase() === wanted ? [index] : []));

export function readColumns(header: string[]): Columns {
  const emails = named(header, 'email');
  if (emails.length === 0) throw badHeader('The CSV has no email column', { columns: header });
  const subscribed = named(header, 'subscribed');
  if (emails.length > 1 || subscribed.length > 1) throw badHeader('The CSV names the email or subscribed column more than once');
  const data: Columns['data'] = [];
  const seen = new Set<string>();
  header.forEach((name, index) => {
    const key = name.trim();
    if (!key || index === emails[0] || index === subscribed[0]) return;
    if (key.length > MAX_KEY) throw badHeader(`Column names must be at most ${MAX_KEY} characters`, { column: key.slice(0, 40) });
    if (key.includes('\u0000')) throw badHeader('Column names must not contain the NUL character');
    if (seen.has(key)) throw badHeader(`The CSV has two columns named ${key}`, { column: key });
    seen.add(key);
    data.push({ index, key });
  });
  return { email: emails[0]!, subscribed: subscribed[0] ?? null, data, count: header.length };
}
