import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { parseMail } from '../helpers/mail';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';
import { createCampaign, sentCampaign } from '../campaigns/helpers';
import { executionIn, linearWorkflow, startExecution } from '../automation/helpers';
import { headerOf, mailTo, pathOf } from '../tracking/helpers';
import { consentEvents, contactOf, createTopic, linkIn } from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ worker: startWorker, pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const BODY = '<p>This week</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a> <a href="{{ manageUrl }}">Preferences</a>';

async function contact(t: SenderTenant, email: string, topicId: string | null): Promise<string> {
  const id = (await t.c.post('/contacts').send({ email }).expect(201)).body.id as string;
  if (topicId)
    await t.c
      .patch(`/contacts/${id}/consent`)
      .send({ topics: [{ topicId, member: true }] })
      .expect(200);
  return id;
}

describe('a campaign about a topic', () => {
  it("goes to the topic's members only, and its unsubscribe links leave that topic only", async () => {
    const t = await campaignTenant(stack);
    const topic = await createTopic(t, { name: 'Digest' });
    const ann = await contact(t, 'ann@example.test', topic.id);
    await contact(t, 'bob@example.test', null);
    const snoozed = await contact(t, 'cat@example.test', topic.id);
    await t.c.patch(`/contacts/${snoozed}/consent`).send({ snooze: 'ONE_MONTH' }).expect(200);
    const campaign = await createCampaign(t, { topicId: topic.id, subject: 'Digest #1', body: BODY });
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    expect((await sentCampaign(t, campaign.id, 60_000)).totalRecipients).toBe(1);

    const mail = await mailTo(stack, 'ann@example.test');
    expect(stack.smtp.to('bob@example.test')).toEqual([]);
    expect(stack.smtp.to('cat@example.test')).toEqual([]);
    const listUnsubscribe = headerOf(mail, 'List-Unsubscribe')!.slice(1, -1);
    expect(listUnsubscribe).toBe(`http://localhost:3000${linkIn(mail, 'unsubscribe')}`);
    expect(new URL(listUnsubscribe).searchParams.get('topic')).toBe(topic.id);

    const page = await stack.http().get(pathOf(listUnsubscribe)).expect(200);
    expect(page.text).toContain('Stop email about <strong>Digest</strong>');
    const left = await stack.http().post(pathOf(listUnsubscribe)).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(left.text).toContain('will no longer receive email about <strong>Digest</strong>');
    expect(await contactOf(stack, t.project.id, 'ann@example.test')).toMatchObject({ subscribed: true });
    expect((await t.c.get(`/contacts/${ann}/consent`)).body.topics).toMatchObject([{ member: false }]);
    expect((await consentEvents(stack, t.project.id)).filter(([, d]) => d.reason === 'one_click')).toEqual([
      ['contact.topic.left', { topicId: topic.id, topicName: 'Digest', reason: 'one_click' }],
    ]);
  });

  it("falls back to the plain unsubscribe for a topic that is not the contact project's", async () => {
    const t = await campaignTenant(stack);
    const other = await campaignTenant(stack);
    const theirs = await createTopic(other);
    await contact(t, 'dan@example.test', null);
    const campaign = await createCampaign(t, { subject: 'News', body: BODY });
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    const mail = await mailTo(stack, 'dan@example.test');
    const path = `${linkIn(mail, 'unsubscribe')}?topic=${theirs.id}`;
    expect((await stack.http().get(path).expect(200)).text).toContain('Stop marketing email from');
    await stack.http().post(path).type('form').send('').expect(200);
    expect(await contactOf(stack, t.project.id, 'dan@example.test')).toMatchObject({ subscribed: false });
    expect(await consentEvents(stack, other.project.id)).toEqual([]);
  });
});

describe('a SEND_EMAIL step about a topic', () => {
  it("mails the topic's members and skips the others, saying why", async () => {
    const t = await campaignTenant(stack);
    const topic = await createTopic(t);
    const template = (
      await t.c.post('/templates').send({ name: 'Digest', from: t.from, subject: 'Digest', body: BODY, type: 'MARKETING' }).expect(201)
    ).body.id;
    const member = await contact(t, 'eve@example.test', topic.id);
    const outsider = await contact(t, 'fay@example.test', null);
    const { workflow } = await linearWorkflow(t, [['SEND_EMAIL', { templateId: template, topicId: topic.id }]], { name: 'Digest flow' });
    const output = async (contactId: string) => {
      const started = await startExecution(t, workflow.id, { contactId });
      const done = await executionIn(t, workflow.id, started.id, ['COMPLETED', 'FAILED']);
      return (done.stepHistory as Array<{ output: Record<string, unknown> }>)[0]!.output;
    };
    expect(await output(outsider)).toEqual({ emailId: null, to: 'fay@example.test', skipped: 'NOT_IN_TOPIC' });
    expect(await output(member)).toEqual({ emailId: expect.any(String), to: 'eve@example.test' });
    const mail = await parseMail(await stack.smtp.waitFor((m) => m.to.includes('eve@example.test')));
    expect(new URL(headerOf(mail, 'List-Unsubscribe')!.slice(1, -1)).searchParams.get('topic')).toBe(topic.id);
    await t.c.patch(`/contacts/${member}/consent`).send({ snooze: 'TWO_WEEKS' }).expect(200);
    const second = (await linearWorkflow(t, [['SEND_EMAIL', { templateId: template }]], { name: 'Any', eventName: 'other' })).workflow;
    const started = await startExecution(t, second.id, { contactId: member });
    const done = await executionIn(t, second.id, started.id, ['COMPLETED']);
    expect((done.stepHistory as Array<{ output: unknown }>)[0]!.output).toEqual({
      emailId: null,
      to: 'eve@example.test',
      skipped: 'SNOOZED',
    });
    expect(stack.smtp.to('fay@example.test')).toEqual([]);
  });
});
