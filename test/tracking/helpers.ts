import type { Email } from 'postal-mime';
import type { TestStack } from '../helpers/stack';
import type { TestProject, TestUser } from '../helpers/fixtures';
import { parseMail } from '../helpers/mail';
import { sql } from '../helpers/seed';

/** The path and query of a link the service put into an email, to request it from the stack under test. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The targets of the anchors of an HTML body, with character references resolved as a browser would. */
export const hrefsOf = (html: string) =>
  [...html.matchAll(/<a\b[^>]*\shref=(?:"([^"]*)"|'([^']*)')/g)].map((m) => (m[1] ?? m[2]!).replace(/&amp;/g, '&'));

export const pixelOf = (html: string) => /<img src="([^"]*\/t\/o\/[^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');

export const headerOf = (mail: Email, name: string) => mail.headers.find((h) => h.key === name.toLowerCase())?.value;

export async function mailTo(stack: TestStack, to: string): Promise<Email> {
  return parseMail(await stack.smtp.waitFor((m) => m.to.includes(to)));
}

/** Timestamps as PostgreSQL writes them. */
export interface EmailState {
  status: string;
  opened_at: string | null;
  clicked_at: string | null;
  delivered_at: string | null;
  bounced_at: string | null;
  complained_at: string | null;
}

export async function emailState(stack: TestStack, id: string): Promise<EmailState> {
  const [row] = await sql<EmailState>(
    stack,
    'select status, opened_at, clicked_at, delivered_at, bounced_at, complained_at from emails where id = ?',
    [id],
  );
  return row!;
}

export interface EventRow {
  name: string;
  data: Record<string, unknown>;
}

/** A contact's events other than email.sent, oldest first. */
export const eventsOf = (stack: TestStack, contactId: string) =>
  sql<EventRow>(stack, `select name, data from events where contact_id = ? and name <> 'email.sent' order by created_at, id`, [contactId]);

export const setTrackingMode = (stack: TestStack, user: TestUser, project: TestProject, trackingMode: unknown) =>
  stack.http().patch(`/users/@me/projects/${project.id}`).set('Cookie', user.cookie).send({ trackingMode });
