import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { campaignTenant, tenant } from '../helpers/tenants';
import { createCampaign } from '../campaigns/helpers';
import { confirmationTemplate, consentEvents, createForm, createTopic, expectError } from './helpers';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const addContact = async (t: { c: any }, email: string, subscribed = true) =>
  (await t.c.post('/contacts').send({ email, subscribed }).expect(201)).body.id as string;

describe('topics', () => {
  it('are created, listed in creation order with cursor pages, read, renamed and deleted', async () => {
    const t = await tenant(stack);
    const digest = await createTopic(t, { name: 'Weekly digest', description: 'Fridays' });
    expect(digest).toEqual({
      id: expect.any(String),
      name: 'Weekly digest',
      description: 'Fridays',
      defaultMembership: 'OUT',
      memberCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const news = await createTopic(t, { name: 'Product news', defaultMembership: 'IN' });
    const first = await t.c.get('/topics?limit=1').expect(200);
    expect(first.body).toMatchObject({ data: [{ id: digest.id }], hasMore: true, total: 2 });
    const second = await t.c.get(`/topics?limit=1&cursor=${first.body.cursor}`).expect(200);
    expect(second.body).toMatchObject({ data: [{ id: news.id }], hasMore: false, cursor: null, total: 0 });

    const renamed = await t.c.patch(`/topics/${digest.id}`).send({ name: 'Digest', description: null }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Digest', description: null, defaultMembership: 'OUT' });
    expect((await t.c.get(`/topics/${digest.id}`).expect(200)).body.name).toBe('Digest');
    await t.c.delete(`/topics/${digest.id}`).expect(204);
    expectError(await t.c.get(`/topics/${digest.id}`), 404, 'NOT_FOUND');
  });

  it('refuses bad bodies with 422, a taken name (any case) with 409, and changes nothing', async () => {
    const t = await tenant(stack);
    await createTopic(t, { name: 'News' });
    for (const body of [
      {},
      { name: '' },
      { name: 'a\nb' },
      { name: 'x'.repeat(101) },
      { name: 'Ok', defaultMembership: 'MAYBE' },
      { name: 'Ok', description: 'd'.repeat(501) },
    ]) {
      expectError(await t.c.post('/topics').send(body), 422, 'VALIDATION_ERROR');
    }
    expectError(await t.c.post('/topics').send({ name: 'news' }), 409, 'CONFLICT');
    expect((await t.c.get('/topics').expect(200)).body.total).toBe(1);
  });

  it("counts members by choice and default; another project's topic is 404 everywhere", async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const [ann, bob] = [await addContact(t, 'ann@example.test'), await addContact(t, 'bob@example.test')];
    await addContact(t, 'cat@example.test');
    const optIn = await createTopic(t, { defaultMembership: 'IN' });
    const optOut = await createTopic(t, { defaultMembership: 'OUT' });
    expect([(await t.c.get(`/topics/${optIn.id}`)).body.memberCount, (await t.c.get(`/topics/${optOut.id}`)).body.memberCount]).toEqual([
      3, 0,
    ]);
    await t.c
      .patch(`/contacts/${ann}/consent`)
      .send({
        topics: [
          { topicId: optIn.id, member: false },
          { topicId: optOut.id, member: true },
        ],
      })
      .expect(200);
    await t.c
      .patch(`/contacts/${bob}/consent`)
      .send({ topics: [{ topicId: optOut.id, member: true }] })
      .expect(200);
    expect([(await t.c.get(`/topics/${optIn.id}`)).body.memberCount, (await t.c.get(`/topics/${optOut.id}`)).body.memberCount]).toEqual([
      2, 2,
    ]);

    for (const res of [
      await other.c.get(`/topics/${optIn.id}`),
      await other.c.patch(`/topics/${optIn.id}`).send({ name: 'Mine' }),
      await other.c.delete(`/topics/${optIn.id}`),
      await t.c.get('/topics/not-a-uuid'),
    ]) {
      expectError(res, 404, 'NOT_FOUND');
    }
    expect((await t.c.get(`/topics/${optIn.id}`)).body.name).toBe(optIn.name);
  });

  it('are refused for deletion while a campaign, a form or an automation step names them', async () => {
    const t = await campaignTenant(stack);
    const topic = await createTopic(t);
    const campaign = await createCampaign(t, { topicId: topic.id });
    const form = await createForm(t, { topicIds: [topic.id] });
    const template = await confirmationTemplate(t);
    const workflow = (await t.c.post('/workflows').send({ name: 'Digest flow', eventName: 'signed-up' }).expect(201)).body;
    await t.c
      .post(`/workflows/${workflow.id}/steps`)
      .send({ type: 'SEND_EMAIL', config: { templateId: template, topicId: topic.id } })
      .expect(201);
    const res = await t.c.delete(`/topics/${topic.id}`);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual({
      campaigns: [{ id: campaign.id, name: campaign.name }],
      forms: [{ id: form.id, name: form.name }],
      workflows: [{ id: workflow.id, name: 'Digest flow' }],
    });
    expect((await t.c.get(`/topics/${topic.id}`)).status).toBe(200);
  });
});

describe('campaigns and steps that name a topic', () => {
  it('take only a MARKETING campaign and a topic of the project, and count its members only', async () => {
    const t = await campaignTenant(stack);
    const other = await tenant(stack);
    const theirs = await createTopic(other);
    const topic = await createTopic(t);
    const ann = await addContact(t, 'ann@example.test');
    await addContact(t, 'bob@example.test');
    await t.c
      .patch(`/contacts/${ann}/consent`)
      .send({ topics: [{ topicId: topic.id, member: true }] })
      .expect(200);
    const campaign = await createCampaign(t, { topicId: topic.id });
    expect([campaign.topicId, campaign.totalRecipients]).toEqual([topic.id, 1]);
    for (const body of [{ topicId: theirs.id }, { topicId: randomUUID() }, { topicId: topic.id, type: 'TRANSACTIONAL' }]) {
      const res = await t.c.post('/campaigns').send({ name: 'x', subject: 's', body: 'b', from: t.from, audienceType: 'ALL', ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.errors[0].field).toBe('topicId');
    }
    const workflow = (await t.c.post('/workflows').send({ name: 'w', eventName: 'e' }).expect(201)).body;
    const template = await confirmationTemplate(t);
    const step = await t.c
      .post(`/workflows/${workflow.id}/steps`)
      .send({ type: 'SEND_EMAIL', config: { templateId: template, topicId: theirs.id } });
    expectError(step, 400, 'BAD_REQUEST');
    expect(step.body.error.errors[0].field).toBe('config.topicId');
  });
});

describe('filters and segments', () => {
  it('read topic membership with topic.<id> and the member operators, choices and defaults alike', async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const [ann, bob] = [await addContact(t, 'ann@example.test'), await addContact(t, 'bob@example.test')];
    await addContact(t, 'cat@example.test');
    const optIn = await createTopic(t, { defaultMembership: 'IN' });
    const optOut = await createTopic(t);
    await t.c
      .patch(`/contacts/${ann}/consent`)
      .send({ topics: [{ topicId: optIn.id, member: false }] })
      .expect(200);
    await t.c
      .patch(`/contacts/${bob}/consent`)
      .send({ topics: [{ topicId: optOut.id, member: true }] })
      .expect(200);
    const count = async (field: string, operator: string) => {
      const condition = { logic: 'AND', groups: [{ filters: [{ field, operator }] }] };
      const res = await t.c
        .post('/segments')
        .send({ name: `${operator} ${field}`.slice(0, 100), condition })
        .expect(201);
      return res.body.memberCount;
    };
    expect(await count(`topic.${optIn.id}`, 'memberOfTopic')).toBe(2);
    expect(await count(`topic.${optIn.id}`, 'notMemberOfTopic')).toBe(1);
    expect(await count(`topic.${optOut.id}`, 'memberOfTopic')).toBe(1);

    const bad = (filter: object) =>
      t.c.post('/segments').send({ name: 'bad', condition: { logic: 'AND', groups: [{ filters: [filter] }] } });
    const theirs = await createTopic(other);
    for (const filter of [
      { field: `topic.${theirs.id}`, operator: 'memberOfTopic' },
      { field: `topic.${optIn.id}`, operator: 'equals', value: true },
      { field: 'topic.nope', operator: 'memberOfTopic' },
    ]) {
      const res = await bad(filter);
      expect([JSON.stringify(filter), res.status]).toEqual([JSON.stringify(filter), 400]);
    }
  });
});

describe("a contact's consent", () => {
  it('shows topics, confirmation and snooze; PATCH changes them and records each change once', async () => {
    const t = await tenant(stack);
    const id = await addContact(t, 'ann@example.test');
    const topic = await createTopic(t, { name: 'Digest' });
    const res = await t.c.get(`/contacts/${id}/consent`).expect(200);
    expect(res.body).toEqual({
      contactId: id,
      subscribed: true,
      confirmation: { state: 'NOT_REQUIRED', confirmedAt: null, pending: null },
      snoozedUntil: null,
      topics: [{ topicId: topic.id, name: 'Digest', description: null, member: false, chosen: false, changedAt: null }],
    });
    const joined = await t.c
      .patch(`/contacts/${id}/consent`)
      .send({ topics: [{ topicId: topic.id, member: true }] })
      .expect(200);
    expect(joined.body.topics[0]).toMatchObject({ member: true, chosen: true, changedAt: expect.any(String) });
    await t.c
      .patch(`/contacts/${id}/consent`)
      .send({ topics: [{ topicId: topic.id, member: true }] })
      .expect(200);
    // Fourteen days from when the request was handled: between its sending and its answer, however slow the machine.
    const sent = Date.now();
    const snoozed = await t.c.patch(`/contacts/${id}/consent`).send({ snooze: 'TWO_WEEKS' }).expect(200);
    const from = new Date(snoozed.body.snoozedUntil).getTime() - 14 * 86_400_000;
    expect(from >= sent - 1_000 && from <= Date.now() + 1_000).toBe(true);
    await t.c
      .patch(`/contacts/${id}/consent`)
      .send({ snooze: null, topics: [{ topicId: topic.id, member: false }] })
      .expect(200);
    expect((await t.c.get(`/contacts/${id}/consent`).expect(200)).body).toMatchObject({ snoozedUntil: null, topics: [{ member: false }] });
    expect(await consentEvents(stack, t.project.id)).toEqual([
      ['contact.topic.joined', { topicId: topic.id, topicName: 'Digest', reason: 'api' }],
      ['contact.snoozed', { until: snoozed.body.snoozedUntil, period: 'TWO_WEEKS', reason: 'api' }],
      ['contact.topic.left', { topicId: topic.id, topicName: 'Digest', reason: 'api' }],
      ['contact.unsnoozed', { reason: 'api', snoozedUntil: snoozed.body.snoozedUntil }],
    ]);
  });

  it("refuses bad bodies and another project's topics with 422, another project's contact with 404, changing nothing", async () => {
    const t = await tenant(stack);
    const other = await tenant(stack);
    const id = await addContact(t, 'ann@example.test');
    const topic = await createTopic(t);
    const theirs = await createTopic(other);
    for (const body of [
      {},
      { topics: [] },
      { topics: [{ topicId: 'x', member: true }] },
      { snooze: 'FOREVER' },
      {
        topics: [
          { topicId: topic.id, member: true },
          { topicId: theirs.id, member: true },
        ],
      },
    ]) {
      expectError(await t.c.patch(`/contacts/${id}/consent`).send(body), 422, 'VALIDATION_ERROR');
    }
    expectError(await other.c.patch(`/contacts/${id}/consent`).send({ snooze: 'ONE_MONTH' }), 404, 'NOT_FOUND');
    expectError(await other.c.get(`/contacts/${id}/consent`), 404, 'NOT_FOUND');
    expect((await t.c.get(`/contacts/${id}/consent`).expect(200)).body).toMatchObject({
      snoozedUntil: null,
      topics: [{ member: false, chosen: false }],
    });
    expect(await consentEvents(stack, t.project.id)).toEqual([]);
  });

  it('keeps the names of consent events to the service: /v1/track refuses them', async () => {
    const t = await tenant(stack);
    for (const event of [
      'contact.confirmed',
      'contact.snoozed',
      'contact.unsnoozed',
      'contact.topic.joined',
      'contact.topic.left',
      'form.submitted',
    ]) {
      const res = await t.c.track({ email: 'ann@example.test', event });
      expect([event, res.status, res.body.error?.errors?.[0]?.code]).toEqual([event, 422, 'reserved_event']);
    }
  });
});
