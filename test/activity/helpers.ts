import type { Email } from 'postal-mime';
import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { sql } from '../helpers/seed';
import { bearer } from '../domains/helpers';
import { send, settled } from '../emails/helpers';
import { hrefsOf, mailTo, pathOf, pixelOf } from '../tracking/helpers';
import { type SenderTenant } from '../helpers/tenants';

/** An email that went through /v1/send and the delivery pump, with the message the SMTP sink received. */
export interface Delivered {
  emailId: string;
  contactId: string;
  to: string;
  mail: Email;
}

export const LINK = 'https://example.test/offer';

/** Sends one email with a tracked link and waits until the pump has handed it to SMTP. */
export async function sendAndDeliver(stack: TestStack, sender: SenderTenant, to: string, subject: string): Promise<Delivered> {
  const res = await send(stack, sender.project, {
    to,
    from: sender.from,
    subject,
    body: `<p>Read <a href="${LINK}">the offer</a></p>`,
  }).expect(200);
  const [{ email, contact }] = res.body.data.emails;
  const row = await settled(stack, email);
  if (row.status !== 'SENT') throw new Error(`email ${email} is ${row.status}`);
  return { emailId: email, contactId: contact.id, to, mail: await mailTo(stack, to) };
}

/** Sends one email to an address the SMTP sink refuses for good, and waits until it FAILED. */
export async function sendAndFail(stack: TestStack, sender: SenderTenant, to: string): Promise<{ emailId: string; contactId: string }> {
  stack.smtp.refuse(to, 550, 'No such user here');
  const res = await send(stack, sender.project, { to, from: sender.from, subject: 'Never arrives', body: '<p>Hello</p>' }).expect(200);
  const [{ email, contact }] = res.body.data.emails;
  const row = await settled(stack, email);
  if (row.status !== 'FAILED') throw new Error(`email ${email} is ${row.status}`);
  return { emailId: email, contactId: contact.id };
}

/** The recipient opens the email: their mail client loads the tracking pixel. */
export async function openMail(stack: TestStack, delivered: Delivered): Promise<void> {
  await stack
    .http()
    .get(pathOf(pixelOf(delivered.mail.html!)!))
    .expect(200);
}

/** The recipient follows the tracked link. */
export async function clickMail(stack: TestStack, delivered: Delivered): Promise<void> {
  const href = hrefsOf(delivered.mail.html!).find((h) => h.includes('/t/c/'));
  await stack.http().get(pathOf(href!)).expect(302);
}

export const get = (stack: TestStack, project: TestProject, path: string) => stack.http().get(path).set('Authorization', bearer(project));

/**
 * Whether the rollups of migration 0024 (summed over the slots of 0025) equal the aggregates of the project's emails and events: the rows
 * that differ, none when they agree.
 */
export async function rollupDrift(stack: TestStack, projectId: string): Promise<unknown[]> {
  return sql(
    stack,
    `with truth as (
       select date_trunc('hour', at, 'UTC') as hour, source_type, campaign_id, counter, count(*)::int as n
       from emails cross join lateral (values ('billable', case when status <> 'FAILED' then created_at end), ('sent', sent_at),
         ('delivered', delivered_at), ('opened', opened_at), ('clicked', clicked_at), ('bounced', bounced_at),
         ('complained', complained_at), ('failed', failed_at)) v(counter, at)
       where project_id = ? and at is not null group by 1, 2, 3, 4),
     roll as (
       select hour, source_type, campaign_id, counter, sum(n)::int as n from email_stats cross join lateral (values ('billable', billable), ('sent', sent),
         ('delivered', delivered), ('opened', opened), ('clicked', clicked), ('bounced', bounced), ('complained', complained),
         ('failed', failed)) v(counter, n)
       where project_id = ? group by 1, 2, 3, 4 having sum(n) <> 0),
     events_truth as (select date_trunc('hour', created_at, 'UTC') as hour, name, count(*)::int as n from events where project_id = ? group by 1, 2),
     events_roll as (select hour, name, sum(count)::int as n from event_stats where project_id = ? group by 1, 2 having sum(count) <> 0)
     select 'email' as rollup, * from ((select * from truth except select * from roll) union all (select * from roll except select * from truth)) e
     union all
     select 'event', hour, name, null, null, n from ((select * from events_truth except select * from events_roll)
       union all (select * from events_roll except select * from events_truth)) v`,
    [projectId, projectId, projectId, projectId],
  );
}
