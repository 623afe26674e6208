import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import type { Tenant } from '../helpers/tenants';

export const filter = (field: string, operator: string, value?: unknown, unit?: string) => ({ field, operator, value, unit });
export const allOf = (...filters: object[]) => ({ logic: 'AND', groups: [{ filters }] });
export const proPlan = allOf(filter('data.plan', 'equals', 'pro'));

export async function addContact(t: Tenant, email: string, data: Record<string, unknown> = {}, subscribed = true): Promise<string> {
  const res = await t.c.post('/contacts').send({ email, data, subscribed });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /contacts answered ${res.status}`);
  return res.body.id;
}

export async function createSegment(t: Tenant, body: object): Promise<Record<string, unknown> & { id: string }> {
  const res = await t.c.post('/segments').send(body);
  if (res.status !== 201) throw new Error(`POST /segments answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** What the database holds for a project's segments, to prove what a request did or did not change. */
export async function snapshot(stack: TestStack, projectId: string) {
  const segments = await sql(stack, 'select * from segments where project_id = ? order by id', [projectId]);
  const members = await sql(
    stack,
    'select m.* from segment_members m join segments s on s.id = m.segment_id where s.project_id = ? order by m.segment_id, m.contact_id',
    [projectId],
  );
  const contacts = await sql(stack, 'select id, email, subscribed, data from contacts where project_id = ? order by id', [projectId]);
  const events = await sql(stack, 'select id from events where project_id = ? order by id', [projectId]);
  return { segments, members, contacts, events };
}

export const segmentEvents = (stack: TestStack, projectId: string) =>
  sql<{ name: string; contact_id: string; data: Record<string, unknown> }>(
    stack,
    "select name, contact_id, data from events where project_id = ? and name like 'segment.%' order by seq",
    [projectId],
  );
