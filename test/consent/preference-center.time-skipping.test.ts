import { randomBytes, randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { preferenceToken } from '../../src/modules/links/preference-token';
import { confirmationUrl } from '../../src/modules/links/confirmation';
import { snoozeWorkflowId } from '../../workflows/consent/ids';
import { sql } from '../helpers/seed';
import { tamperedSignature } from '../helpers/fixtures';
import { tenant, type Tenant } from '../helpers/tenants';
import type { TestStack } from '../helpers/stack';
import type { WebhookServer } from '../automation/webhook-server';
import { addEndpoint, aroundWebhookTests, verified, waitForCount } from '../webhooks/helpers';
import { confirmationTemplate, consentEvents, contactOf, createForm, createTopic, signupState, submit, type Json } from './helpers';
import { quietSenderTenant } from '../helpers/time-skipping';

let stack: TestStack;
let env: TestWorkflowEnvironment;
let server: WebhookServer;
aroundWebhookTests((ws, receiver) => {
  stack = ws.stack;
  env = ws.env!;
  server = receiver;
});

const DAY = 24 * 60 * 60_000;

/** A subscribed contact of the tenant and the path of its preference center. */
async function subscriber(t: Tenant, email = 'ann@example.test') {
  const id: string = (await t.c.post('/contacts').send({ email, subscribed: true }).expect(201)).body.id;
  return { id, manage: `/manage/${preferenceToken(stack.deps.config, id)}` };
}

const post = (path: string, form: string) => stack.http().post(path).type('form').send(form);
const consentOf = async (t: Tenant, id: string): Promise<Json> => (await t.c.get(`/contacts/${id}/consent`).expect(200)).body;
const choicesOfTopic = async (topicId: string) =>
  (await sql<{ n: number }>(stack, 'select count(*)::int as n from contact_topics where topic_id = ?', [topicId]))[0]!.n;

describe('the preference center through HTTP', () => {
  it('joins the checked topics and leaves the others shown, snoozes and resumes, each change recorded once with its reason', async () => {
    const t = await tenant(stack);
    const digest = await createTopic(t, { name: 'Digest' });
    const news = await createTopic(t, { name: 'News', defaultMembership: 'IN' });
    const foreign = await createTopic(await tenant(stack), { name: 'Theirs' });
    const { id, manage } = await subscriber(t);

    const page = await stack.http().get(manage).expect(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    for (const topic of [digest, news]) expect(page.text).toContain(`name="topic_${topic.id}"`);

    // Checked: Digest, and another project's topic smuggled in; shown but unchecked: News.
    const saved = await post(
      manage + '/topics',
      `shown=${digest.id}+${news.id}+${foreign.id}&topic_${digest.id}=in&topic_${foreign.id}=in`,
    );
    expect([saved.status, saved.text.includes('Your preferences were saved.')]).toEqual([200, true]);
    expect((await consentOf(t, id)).topics.map((x: Json) => [x.name, x.member, x.chosen])).toEqual([
      ['Digest', true, true],
      ['News', false, true],
    ]);
    expect(await choicesOfTopic(foreign.id)).toBe(0);
    // Saving the same choices again changes nothing and records nothing.
    await post(manage + '/topics', `shown=${digest.id}+${news.id}&topic_${digest.id}=in`).expect(200);

    const paused = await post(manage + '/snooze', 'period=ONE_MONTH');
    expect([paused.status, paused.text.includes('Marketing email is paused until')]).toEqual([200, true]);
    const { snoozedUntil } = await consentOf(t, id);
    expect(new Date(snoozedUntil).getTime() - Date.now()).toBeGreaterThan(29 * DAY);
    const snooze = env.client.workflow.getHandle(snoozeWorkflowId(id));
    expect((await snooze.describe()).status.name).toBe('RUNNING');

    await post(manage + '/resume', '').expect(200);
    await snooze.result();
    expect((await consentOf(t, id)).snoozedUntil).toBeNull();
    expect(await consentEvents(stack, t.project.id)).toEqual([
      ['contact.topic.joined', { topicId: digest.id, topicName: 'Digest', reason: 'preferences_page' }],
      ['contact.topic.left', { topicId: news.id, topicName: 'News', reason: 'preferences_page' }],
      ['contact.snoozed', { until: snoozedUntil, period: 'ONE_MONTH', reason: 'preferences_page' }],
      ['contact.unsnoozed', { reason: 'preferences_page', snoozedUntil }],
    ]);
  });

  it('refuses a bad form with 422 VALIDATION_ERROR and a forged or malformed link with the 404 page, changing nothing', async () => {
    const t = await tenant(stack);
    const topic = await createTopic(t, { name: 'Digest' });
    const { id, manage } = await subscriber(t);
    const bad: Array<[string, string]> = [
      ['/topics', ''],
      ['/topics', 'shown=not-a-topic'],
      ['/topics', `shown=${topic.id}&topic_${topic.id}=yes`],
      ['/topics', `shown=${'a'.repeat(4001)}`],
      ['/snooze', ''],
      ['/snooze', 'period=FOREVER'],
      ['/snooze', 'period=two_weeks'],
    ];
    for (const [action, form] of bad) {
      const res = await post(manage + action, form);
      expect([action, form.slice(0, 40), res.status, res.body.error?.code]).toEqual([action, form.slice(0, 40), 422, 'VALIDATION_ERROR']);
    }
    const [contactId, signature] = manage.split('/')[2]!.split('.');
    for (const token of [`${contactId}.${tamperedSignature(signature!)}`, `${contactId}`, 'x'.repeat(201), `${contactId}.${signature}.x`]) {
      for (const [action, form] of [
        ['/topics', `shown=${topic.id}&topic_${topic.id}=in`],
        ['/snooze', 'period=TWO_WEEKS'],
        ['/resume', ''],
      ] as const) {
        const res = await post(`/manage/${token}${action}`, form);
        expect([token.slice(0, 50), action, res.status, res.text.includes('<!doctype html>')]).toEqual([
          token.slice(0, 50),
          action,
          404,
          true,
        ]);
      }
    }
    expect(await consentOf(t, id)).toMatchObject({ snoozedUntil: null, topics: [{ member: false, chosen: false }] });
    expect(await consentEvents(stack, t.project.id)).toEqual([]);
  });

  it("a forged, malformed or unknown confirmation link is the 404 page and confirms nothing; the real one has the public pages' headers", async () => {
    const t = await quietSenderTenant(stack);
    const template = await confirmationTemplate(t);
    const form = await createForm(t, { doubleOptIn: true, confirmationTemplateId: template });
    await submit(stack, form.id, { email: 'bob@example.test' }).expect(200);
    const contact = (await contactOf(stack, t.project.id, 'bob@example.test'))!;
    const [{ id: confirmationId }] = await sql<{ id: string }>(stack, 'select id from confirmations where contact_id = ?', [contact.id]);
    const [, token] = new URL(confirmationUrl(stack.deps.config, confirmationId!)).pathname.split('/confirm/');
    const [, signature] = token!.split('.');
    // The real link's page has the headers of every public page.
    const page = await stack.http().get(`/confirm/${token}`).expect(200);
    expect([page.headers['cache-control'], page.headers['x-frame-options'], page.headers['referrer-policy']]).toEqual([
      'no-store',
      'DENY',
      'no-referrer',
    ]);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const before = await signupState(stack, t.project.id);
    for (const forged of [
      `${confirmationId}.${tamperedSignature(signature!)}`,
      preferenceToken(stack.deps.config, confirmationId!),
      confirmationId!,
      new URL(confirmationUrl(stack.deps.config, randomUUID())).pathname.slice('/confirm/'.length),
    ]) {
      for (const res of [await stack.http().get(`/confirm/${forged}`), await post(`/confirm/${forged}`, '')]) {
        expect([forged.slice(0, 50), res.status, res.text.includes('<!doctype html>')]).toEqual([forged.slice(0, 50), 404, true]);
      }
    }
    expect(await signupState(stack, t.project.id)).toEqual(before);
    expect((await consentOf(t, contact.id)).confirmation.state).toBe('UNCONFIRMED');
  });
});

describe('consent events and outbound webhooks', () => {
  it('delivers every consent event to an endpoint that selects it, signed, in the order recorded', async () => {
    const t = await quietSenderTenant(stack);
    const path = `/consent-${randomBytes(3).toString('hex')}`;
    const endpoint = await addEndpoint(t, { url: server.url(path), events: ['contact.*', 'form.submitted'] });
    const topic = await createTopic(t, { name: 'Digest' });
    const form = await createForm(t, { topicIds: [topic.id], doubleOptIn: true, confirmationTemplateId: await confirmationTemplate(t) });

    await submit(stack, form.id, { email: 'cat@example.test' }).expect(200);
    const contact = (await contactOf(stack, t.project.id, 'cat@example.test'))!;
    const [{ id: confirmationId }] = await sql<{ id: string }>(stack, 'select id from confirmations where contact_id = ?', [contact.id]);
    await post(new URL(confirmationUrl(stack.deps.config, confirmationId!)).pathname, '').expect(200);
    await t.c
      .patch(`/contacts/${contact.id}/consent`)
      .send({ topics: [{ topicId: topic.id, member: false }], snooze: 'TWO_WEEKS' })
      .expect(200);
    await t.c.patch(`/contacts/${contact.id}/consent`).send({ snooze: null }).expect(200);

    const recorded = await consentEvents(stack, t.project.id);
    expect(recorded.map(([name]) => name)).toEqual([
      'form.submitted',
      'contact.subscribed',
      'contact.topic.joined',
      'contact.confirmed',
      'contact.topic.left',
      'contact.snoozed',
      'contact.unsnoozed',
    ]);
    await waitForCount('the consent events', () => server.to(path).length, recorded.length);
    const bodies = verified(server.to(path), endpoint.secret);
    expect(bodies.map((b) => [b.type, b.data.name, b.data.contact, b.data.data])).toEqual(
      recorded.map(([name, data]) => [name, name, { id: contact.id, email: 'cat@example.test' }, data]),
    );
  });
});
