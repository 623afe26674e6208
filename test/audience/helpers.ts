import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';

/** Requests of one project's integration: `secret` and `public` carry its keys. */
export function client(stack: TestStack, project: TestProject) {
  const bearer = (key: string) => `Bearer ${key}`;
  return {
    get: (path: string) => stack.http().get(path).set('Authorization', bearer(project.secret)),
    post: (path: string) => stack.http().post(path).set('Authorization', bearer(project.secret)),
    patch: (path: string) => stack.http().patch(path).set('Authorization', bearer(project.secret)),
    delete: (path: string) => stack.http().delete(path).set('Authorization', bearer(project.secret)),
    track: (body: object) => stack.http().post('/v1/track').set('Authorization', bearer(project.public)).send(body),
  };
}

export type Client = ReturnType<typeof client>;

/** Reads the database directly, to prove what a request did or did not change. */
export async function query<T = Record<string, unknown>>(stack: TestStack, sql: string, params: unknown[] = []): Promise<T[]> {
  return stack.deps.orm.em.fork().execute<T[]>(sql, params);
}

export async function countOf(stack: TestStack, table: 'contacts' | 'events' | 'contact_fields' | 'idempotency_keys', projectId: string): Promise<number> {
  const [row] = await query<{ n: string }>(stack, `select count(*) as n from ${table} where project_id = ?`, [projectId]);
  return Number(row!.n);
}

export async function eventNamesOf(stack: TestStack, contactId: string): Promise<string[]> {
  const rows = await query<{ name: string }>(stack, 'select name from events where contact_id = ? order by seq', [contactId]);
  return rows.map((r) => r.name);
}
