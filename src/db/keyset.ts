import type { EntityManager } from '@mikro-orm/postgresql';
import type { CursorPosition } from '../http/cursor';

/**
 * Keyset pagination over (sort key, id): a page starts strictly after the previous page's last row, so rows
 * inserted meanwhile neither repeat nor shift the pages, and every page is an index range scan.
 */

export interface SortKey {
  /** The SQL expression sorted on. */
  column: string;
  /** The expression that renders the column exactly as text, for the cursor. */
  toText: string;
  /** The SQL that turns the cursor text back into a comparable value (one `?`). */
  fromText: string;
}

export const textKey = (column: string): SortKey => ({ column, toText: column, fromText: '?' });

/** Timestamps travel as integer microseconds: a JS Date would lose PostgreSQL's precision and skip rows. */
export const timestampKey = (column: string): SortKey => ({
  column,
  toText: `(extract(epoch from ${column}) * 1000000)::bigint::text`,
  fromText: `'epoch'::timestamptz + ?::bigint * interval '1 microsecond'`,
});

export interface KeysetQuery {
  select: string;
  from: string;
  where: string[];
  params: unknown[];
  key: SortKey;
  idColumn: string;
  dir: 'asc' | 'desc';
  limit: number;
  after?: CursorPosition;
}

export async function keysetPage<Row>(em: EntityManager, q: KeysetQuery): Promise<{ rows: Row[]; next: CursorPosition | null }> {
  const where = [...q.where];
  const params = [...q.params];
  if (q.after) {
    where.push(`(${q.key.column}, ${q.idColumn}) ${q.dir === 'desc' ? '<' : '>'} (${q.key.fromText}, ?::uuid)`);
    params.push(q.after.value, q.after.id);
  }
  const rows = await em.execute<Array<Row & { cursor_value: string; cursor_id: string }>>(
    `select ${q.select}, ${q.key.toText} as cursor_value, ${q.idColumn} as cursor_id from ${q.from}
     where ${where.join(' and ')}
     order by ${q.key.column} ${q.dir}, ${q.idColumn} ${q.dir} limit ?`,
    [...params, q.limit + 1],
  );
  const last = rows[q.limit - 1];
  const next = rows.length > q.limit && last ? { value: last.cursor_value, id: last.cursor_id } : null;
  return { rows: rows.slice(0, q.limit).map(({ cursor_value: _v, cursor_id: _i, ...row }) => row as Row), next };
}

export async function countRows(em: EntityManager, from: string, where: string[], params: unknown[]): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from ${from} where ${where.join(' and ')}`, params);
  return Number(row?.n ?? 0);
}

/** An ILIKE pattern matching `text` anywhere, with its wildcards taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
