import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { waitForMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import type { SenderTenant } from '../helpers/tenants';
import { parseMail } from '../helpers/mail';
import { recordHistory } from './histories';
import { createCampaign } from '../campaigns/helpers';
import { confirmationWorkflowId, snoozeWorkflowId } from '../../workflows/consent/ids';
import { confirmationTemplate, consentEvents, contactOf, createForm, createTopic, expectError, linkIn, submit } from './helpers';
import { quietSenderTenant } from '../helpers/time-skipping';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// Limits, not targets: skipping days of timers takes a while of real time on a loaded machine.
jest.setTimeout(180_000);

let env: TestWorkflowEnvironment;
let stack: TestStack;
beforeAll(async () => {
  env = await timeSkippingEnv();
  stack = await startStack({
    temporal: gatewayFor(env, `consent-${randomBytes(4).toString('hex')}`),
    worker: (deps) => startWorker(deps, env.nativeConnection),
    pump: true,
  });
});
afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

const senderTenant = (s: TestStack) => quietSenderTenant(s);

const FIELDS = [
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'data.firstName', label: 'First name', type: 'text' },
];

/** How many contacts a MARKETING campaign to everyone would reach now (a draft counts its live audience). */
const audience = async (t: SenderTenant, topicId?: string) => (await createCampaign(t, topicId ? { topicId } : {})).totalRecipients;

const mailsTo = (to: string) => stack.smtp.to(to).length;

async function doubleOptInForm(t: SenderTenant) {
  const topic = await createTopic(t, { name: 'Digest' });
  const template = await confirmationTemplate(t);
  const form = await createForm(t, { fields: FIELDS, topicIds: [topic.id], doubleOptIn: true, confirmationTemplateId: template });
  return { topic, form };
}

const confirmationOf = async (contactId: string) =>
  (await sql<{ id: string; status: string; sent_count: number; reminded_at: string | null }>(
    stack,
    'select id, status, sent_count, reminded_at from confirmations where contact_id = ? order by created_at',
    [contactId],
  ))!;

describe('double opt-in through a form', () => {
  it('keeps the signup out of marketing until the mailed link is followed; confirming applies it once', async () => {
    const t = await senderTenant(stack);
    const { topic, form } = await doubleOptInForm(t);
    const thanks = await submit(stack, form.id, { email: 'ann@example.test', 'data.firstName': 'Ann' }).expect(200);
    expect(thanks.text).toContain('a confirmation link is on its way to ann@example.test');
    const contact = (await contactOf(stack, t.project.id, 'ann@example.test'))!;
    expect(contact).toMatchObject({ subscribed: false, data: { firstName: 'Ann' } });
    expect((await t.c.get(`/contacts/${contact.id}/consent`).expect(200)).body.confirmation).toMatchObject({
      state: 'UNCONFIRMED',
      pending: { formId: form.id, remindedAt: null },
    });
    const mail = await waitForMail(stack.smtp, 'ann@example.test', /Please confirm/);
    expect(mail.html).toContain('Hello Ann:');
    const link = linkIn(mail, 'confirm');
    // Subscribed by the integration meanwhile, the contact still gets no marketing: only the link confirms.
    await t.c.patch(`/contacts/${contact.id}`).send({ subscribed: true }).expect(200);
    expect(await audience(t)).toBe(0);

    // Following the link only shows a button: mail scanners open links.
    const ask = await stack.http().get(link).expect(200);
    expect(ask.text).toContain('<button type="submit">Confirm</button>');
    expect((await t.c.get(`/contacts/${contact.id}/consent`)).body.confirmation.state).toBe('UNCONFIRMED');

    const done = await stack.http().post(link).type('form').send('').expect(200);
    expect(done.text).toContain('Subscription confirmed');
    const consent = (await t.c.get(`/contacts/${contact.id}/consent`).expect(200)).body;
    expect(consent).toMatchObject({
      subscribed: true,
      confirmation: { state: 'CONFIRMED', pending: null },
      topics: [{ topicId: topic.id, member: true }],
    });
    expect(await audience(t)).toBe(1);
    expect(await audience(t, topic.id)).toBe(1);
    await stack.http().post(link).type('form').send('').expect(200);
    const [confirmation] = await confirmationOf(contact.id);
    expect(await consentEvents(stack, t.project.id)).toEqual([
      ['form.submitted', { formId: form.id, formName: 'Signup', doubleOptIn: true }],
      ['contact.subscribed', {}],
      ['contact.topic.joined', { topicId: topic.id, topicName: 'Digest', reason: 'confirmation' }],
      ['contact.confirmed', { confirmationId: confirmation!.id, formId: form.id }],
    ]);
    // Confirming ended the workflow: no reminder will come.
    await env.client.workflow.getHandle(confirmationWorkflowId(confirmation!.id)).result();
    await recordHistory(env, confirmationWorkflowId(confirmation!.id), 'confirmation-confirmed');
    expect(mailsTo('ann@example.test')).toBe(1);
  });

  it('mails the link again for a second signup at most once an hour, gathering what each signup asked for', async () => {
    const t = await senderTenant(stack);
    const { topic, form } = await doubleOptInForm(t);
    const other = await createTopic(t, { name: 'Offers' });
    const second = await createForm(t, {
      fields: FIELDS,
      topicIds: [other.id],
      doubleOptIn: true,
      confirmationTemplateId: form.confirmationTemplateId,
    });
    await submit(stack, form.id, { email: 'bob@example.test' }).expect(200);
    await waitForMail(stack.smtp, 'bob@example.test', /Please confirm/);
    await submit(stack, second.id, { email: 'bob@example.test', 'data.firstName': 'Bob' }).expect(200);
    const contact = (await contactOf(stack, t.project.id, 'bob@example.test'))!;
    expect((await confirmationOf(contact.id)).map((c) => [c.status, c.sent_count])).toEqual([['PENDING', 1]]);
    await sql(stack, `update confirmations set last_sent_at = now() - interval '61 minutes' where contact_id = ?`, [contact.id]);
    await submit(stack, form.id, { email: 'bob@example.test' }).expect(200);
    await waitFor('the link mailed again', async () => (mailsTo('bob@example.test') === 2 ? true : undefined));
    expect((await confirmationOf(contact.id)).map((c) => [c.status, c.sent_count])).toEqual([['PENDING', 2]]);
    const mails = stack.smtp.to('bob@example.test');
    const [first, again] = await Promise.all(mails.map(parseMail));
    expect(linkIn(again!, 'confirm')).toBe(linkIn(first!, 'confirm'));
    await stack.http().post(linkIn(again!, 'confirm')).type('form').send('').expect(200);
    const consent = (await t.c.get(`/contacts/${contact.id}/consent`)).body;
    expect(consent.topics.map((x: { topicId: string; member: boolean }) => [x.topicId, x.member])).toEqual([
      [topic.id, true],
      [other.id, true],
    ]);
    expect((await contactOf(stack, t.project.id, 'bob@example.test'))!.data).toEqual({ firstName: 'Bob' });
  });

  it('sends one reminder after a day, then expires the link after a week; a new signup gets a new link', async () => {
    const t = await senderTenant(stack);
    const { form } = await doubleOptInForm(t);
    await submit(stack, form.id, { email: 'cat@example.test' }).expect(200);
    const first = await waitForMail(stack.smtp, 'cat@example.test', /Please confirm/);
    const contact = (await contactOf(stack, t.project.id, 'cat@example.test'))!;

    await env.sleep(DAY - MINUTE);
    expect((await confirmationOf(contact.id))[0]!.reminded_at).toBeNull();
    await env.sleep(2 * MINUTE);
    await waitFor('the reminder', async () => (mailsTo('cat@example.test') === 2 ? true : undefined), 30_000);
    const reminder = await parseMail(stack.smtp.to('cat@example.test')[1]!);
    expect(reminder.html).toContain('a reminder');
    expect(linkIn(reminder, 'confirm')).toBe(linkIn(first, 'confirm'));

    await env.sleep(6 * DAY);
    await waitFor('the expiry', async () => ((await confirmationOf(contact.id))[0]!.status === 'EXPIRED' ? true : undefined), 30_000);
    const expired = confirmationWorkflowId((await confirmationOf(contact.id))[0]!.id);
    await env.client.workflow.getHandle(expired).result();
    await recordHistory(env, expired, 'confirmation-reminded-expired');
    for (const res of [
      await stack.http().get(linkIn(first, 'confirm')),
      await stack.http().post(linkIn(first, 'confirm')).type('form').send(''),
    ]) {
      expect([res.status, res.text.includes('This link has expired')]).toEqual([410, true]);
    }
    expect((await t.c.get(`/contacts/${contact.id}/consent`)).body).toMatchObject({
      subscribed: false,
      confirmation: { state: 'UNCONFIRMED', pending: null },
    });
    expect(mailsTo('cat@example.test')).toBe(2);

    await submit(stack, form.id, { email: 'cat@example.test' }).expect(200);
    await waitFor('a new link', async () => (mailsTo('cat@example.test') === 3 ? true : undefined));
    expect((await confirmationOf(contact.id)).map((c) => c.status)).toEqual(['EXPIRED', 'PENDING']);
  });
});

describe('double opt-in through POST /contacts', () => {
  it('creates the contact unsubscribed, mails the link and answers the confirmation in _meta', async () => {
    const t = await senderTenant(stack);
    const template = await confirmationTemplate(t, 'Confirm, please');
    const res = await t.c
      .post('/contacts')
      .send({ email: 'dan@example.test', data: { firstName: 'Dan' }, doubleOptIn: true, confirmationTemplateId: template })
      .expect(201);
    expect(res.body).toMatchObject({
      subscribed: false,
      data: { firstName: 'Dan' },
      _meta: { isNew: true, confirmation: { status: 'SENT', expiresAt: expect.any(String) } },
    });
    const mail = await waitForMail(stack.smtp, 'dan@example.test', /Confirm, please/);
    const again = await t.c
      .post('/contacts')
      .send({ email: 'dan@example.test', doubleOptIn: true, confirmationTemplateId: template })
      .expect(200);
    expect(again.body._meta.confirmation.status).toBe('NOT_RESENT');
    await stack.http().post(linkIn(mail, 'confirm')).type('form').send('').expect(200);
    expect((await t.c.get(`/contacts/${res.body.id}`)).body.subscribed).toBe(true);
  });

  it('refuses subscribed beside doubleOptIn, a missing or linkless template, storing nothing', async () => {
    const t = await senderTenant(stack);
    const noLink = (await t.c.post('/templates').send({ name: 'x', from: t.from, subject: 's', body: '<p>hi</p>' }).expect(201)).body.id;
    const template = await confirmationTemplate(t);
    for (const body of [
      { email: 'eve@example.test', doubleOptIn: true },
      { email: 'eve@example.test', doubleOptIn: true, subscribed: true, confirmationTemplateId: template },
    ]) {
      const res = await t.c.post('/contacts').send(body);
      expect([res.status, typeof res.body.error]).toEqual([400, 'string']);
    }
    expectError(
      await t.c.post('/contacts').send({ email: 'eve@example.test', doubleOptIn: true, confirmationTemplateId: noLink }),
      422,
      'VALIDATION_ERROR',
    );
    expect(await contactOf(stack, t.project.id, 'eve@example.test')).toBeUndefined();
  });
});

describe('snooze', () => {
  it('leaves the contact out of marketing until its timer ends it by itself', async () => {
    const t = await senderTenant(stack);
    const id = (await t.c.post('/contacts').send({ email: 'fay@example.test' }).expect(201)).body.id;
    const snoozed = (await t.c.patch(`/contacts/${id}/consent`).send({ snooze: 'TWO_WEEKS' }).expect(200)).body;
    expect(await audience(t)).toBe(0);
    await env.sleep(14 * DAY - 10 * MINUTE);
    expect((await t.c.get(`/contacts/${id}/consent`)).body.snoozedUntil).toBe(snoozed.snoozedUntil);
    await env.sleep(20 * MINUTE);
    await env.client.workflow.getHandle(snoozeWorkflowId(id)).result();
    await recordHistory(env, snoozeWorkflowId(id), 'snooze-ended');
    expect((await t.c.get(`/contacts/${id}/consent`)).body.snoozedUntil).toBeNull();
    expect(await audience(t)).toBe(1);
    expect((await consentEvents(stack, t.project.id)).slice(-1)).toEqual([
      ['contact.unsnoozed', { reason: 'ended', snoozedUntil: snoozed.snoozedUntil }],
    ]);
  });

  it('moves the end when snoozed again, and stops at once when resumed', async () => {
    const t = await senderTenant(stack);
    const id = (await t.c.post('/contacts').send({ email: 'gus@example.test' }).expect(201)).body.id;
    await t.c.patch(`/contacts/${id}/consent`).send({ snooze: 'TWO_WEEKS' }).expect(200);
    const moved = (await t.c.patch(`/contacts/${id}/consent`).send({ snooze: 'ONE_MONTH' }).expect(200)).body;
    await env.sleep(15 * DAY);
    expect((await t.c.get(`/contacts/${id}/consent`)).body.snoozedUntil).toBe(moved.snoozedUntil);
    await t.c.patch(`/contacts/${id}/consent`).send({ snooze: null }).expect(200);
    await env.client.workflow.getHandle(snoozeWorkflowId(id)).result();
    await recordHistory(env, snoozeWorkflowId(id), 'snooze-moved-resumed');
    expect(await audience(t)).toBe(1);
    expect((await consentEvents(stack, t.project.id)).map(([name, data]) => [name, data.reason])).toEqual([
      ['contact.snoozed', 'api'],
      ['contact.snoozed', 'api'],
      ['contact.unsnoozed', 'api'],
    ]);
  });
});
