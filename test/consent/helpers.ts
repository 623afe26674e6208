import type { Email } from 'postal-mime';
import { startToken } from '../../src/modules/forms/start-token';
import type { TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import type { SenderTenant, Tenant } from '../helpers/tenants';
import { hrefsOf, pathOf } from '../tracking/helpers';

export type Json = Record<string, any>;

export async function createTopic(t: Tenant, body: Json = {}): Promise<Json> {
  const res = await t.c.post('/topics').send({ name: `Topic ${Math.random().toString(36).slice(2, 8)}`, ...body });
  if (res.status !== 201) throw new Error(`POST /topics answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export const CONFIRM_BODY =
  '<p>Hello {{ firstName ?? "there" }}{% if reminder %}, a reminder{% endif %}: <a href="{{ confirmUrl }}">Confirm</a></p>';

/** A template of the project that can be a confirmation email. */
export async function confirmationTemplate(t: SenderTenant, subject = 'Please confirm'): Promise<string> {
  const res = await t.c
    .post('/templates')
    .send({ name: 'Confirm', type: 'TRANSACTIONAL', from: t.from, subject, body: CONFIRM_BODY })
    .expect(201);
  return res.body.id;
}

export async function createForm(t: Tenant, body: Json = {}): Promise<Json> {
  const res = await t.c.post('/forms').send({ name: 'Signup', ...body });
  if (res.status !== 201) throw new Error(`POST /forms answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A start token as the form's page would have given it `agoMs` ago. */
export const shownAgo = (stack: TestStack, formId: string, agoMs = 10_000) => startToken(stack.deps.config, formId, Date.now() - agoMs);

/** Posts a signup to the public endpoint, as the hosted page or the snippet would, from the test's loopback address (no X-Forwarded-For). */
export function submit(
  stack: TestStack,
  formId: string,
  fields: Record<string, string>,
  options: { token?: string | null; honeypot?: string } = {},
) {
  const token = options.token === undefined ? shownAgo(stack, formId) : options.token;
  const form = new URLSearchParams({ ...fields, website: options.honeypot ?? '', ...(token === null ? {} : { _pw_started: token }) });
  return stack.http().post(`/f/${formId}`).type('form').send(form.toString());
}

export const contactOf = async (stack: TestStack, projectId: string, email: string) =>
  (
    await sql<{ id: string; subscribed: boolean; data: Json }>(
      stack,
      'select id, subscribed, data from contacts where project_id = ? and email = ?',
      [projectId, email],
    )
  )[0];

/** The project's service events of the consent area, oldest first, as `[name, data]`. */
export async function consentEvents(stack: TestStack, projectId: string): Promise<Array<[string, Json]>> {
  const rows = await sql<{ name: string; data: Json }>(
    stack,
    `select name, data from events where project_id = ? and (name like 'contact.%' or name = 'form.submitted') order by seq`,
    [projectId],
  );
  return rows.map((r) => [r.name, r.data]);
}

/** Everything a signup could have written in the project, to prove a refused one wrote nothing. */
export async function signupState(stack: TestStack, projectId: string) {
  const [counts] = await sql(
    stack,
    `select (select count(*)::int from contacts where project_id = ?) as contacts,
            (select count(*)::int from events where project_id = ?) as events,
            (select count(*)::int from confirmations where project_id = ?) as confirmations,
            (select count(*)::int from emails where project_id = ?) as emails,
            (select count(*)::int from contact_topics ct join topics t on t.id = ct.topic_id where t.project_id = ?) as choices`,
    [projectId, projectId, projectId, projectId, projectId],
  );
  return counts;
}

/** The link to the service's page `page` (`confirm`, `unsubscribe`, `manage`) in a mail, as a path of the stack. */
export function linkIn(mail: Email, page: string): string {
  const link = hrefsOf(mail.html ?? '').find((h) => new URL(h).pathname.startsWith(`/${page}/`));
  if (!link) throw new Error(`no /${page}/ link in "${mail.subject}"`);
  return pathOf(link);
}

/** The error envelope's status and code. */
export function expectError(res: { status: number; body: Json }, status: number, code: string): void {
  expect([res.status, res.body?.error?.code]).toEqual([status, code]);
}
