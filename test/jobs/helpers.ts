import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import type { Tenant } from '../helpers/tenants';

export const csv = (...lines: string[]) => lines.join('\n') + '\n';

/** POST /contacts/import with `content` as the multipart field `file`. */
export const upload = (t: Tenant, content: string | Buffer, fileName = 'contacts.csv', field = 'file') =>
  t.c.post('/contacts/import').attach(field, Buffer.isBuffer(content) ? content : Buffer.from(content), fileName);

export interface JobStatus<R = Record<string, unknown>> {
  id: string;
  state: 'waiting' | 'active' | 'completed' | 'failed';
  progress: number;
  result: R;
  failedReason?: string;
}

/** Polls the job through the API until it completes or fails. */
export async function settled<R>(t: Tenant, path: string, timeoutMs = 30_000): Promise<JobStatus<R>> {
  return waitFor(
    `${path} to settle`,
    async () => {
      const res = await t.c.get(path);
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      const job = res.body as JobStatus<R>;
      return job.state === 'completed' || job.state === 'failed' ? job : undefined;
    },
    timeoutMs,
  );
}

export async function addContact(t: Tenant, email: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.c.post('/contacts').send({ email, ...body });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /contacts answered ${res.status}`);
  return res.body.id;
}

/** Everything a job could change in a project, to prove a refused request changed none of it. */
export async function projectState(stack: TestStack, projectId: string) {
  const [contacts, events, fields, jobs] = await Promise.all([
    sql(stack, 'select id, email, subscribed, data, updated_at from contacts where project_id = ? order by id', [projectId]),
    sql(stack, 'select id from events where project_id = ? order by id', [projectId]),
    sql(stack, 'select key, type from contact_fields where project_id = ? order by key', [projectId]),
    sql(stack, 'select id from jobs where project_id = ?', [projectId]),
  ]);
  return { contacts, events, fields, jobs };
}

export const contactsOf = (stack: TestStack, projectId: string) =>
  sql<{ id: string; email: string; subscribed: boolean; data: Record<string, unknown> }>(
    stack,
    'select id, email, subscribed, data from contacts where project_id = ? order by email',
    [projectId],
  );

export const eventsOf = (stack: TestStack, projectId: string) =>
  sql<{ name: string; contact_id: string }>(stack, 'select name, contact_id from events where project_id = ? order by seq', [projectId]);
