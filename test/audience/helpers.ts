import type { TestStack } from '../helpers/stack';

/** Reads the database directly, to prove what a request did or did not change. */
export async function query<T = Record<string, unknown>>(stack: TestStack, sql: string, params: unknown[] = []): Promise<T[]> {
  return stack.deps.orm.em.fork().execute<T[]>(sql, params);
}

export async function countOf(
  stack: TestStack,
  table: 'contacts' | 'events' | 'contact_fields' | 'idempotency_keys',
  projectId: string,
): Promise<number> {
  const [row] = await query<{ n: string }>(stack, `select count(*) as n from ${table} where project_id = ?`, [projectId]);
  return Number(row!.n);
}

export async function eventNamesOf(stack: TestStack, contactId: string): Promise<string[]> {
  const rows = await query<{ name: string }>(stack, 'select name from events where contact_id = ? order by seq', [contactId]);
  return rows.map((r) => r.name);
}
