import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { addContact, allOf, filter } from '../segments/helpers';
import { campaignBody, campaignState, createCampaign } from './helpers';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';

/**
 * The Campaigns table through HTTP. No worker polls this stack's task queue, so a campaign that is sent
 * stays SENDING or SCHEDULED here: the states that lock it against edits.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function sendNow(t: SenderTenant, id: string) {
  return (await t.c.post(`/campaigns/${id}/send`).send({}).expect(200)).body;
}

/** The project's campaign rows before and after a refused request must be equal. */
async function expectUnchanged(t: SenderTenant, request: () => Promise<unknown>) {
  const before = await campaignState(stack, t.project.id);
  await request();
  expect(await campaignState(stack, t.project.id)).toEqual(before);
}

const AB = { variants: [{ subject: 'A' }, { subject: 'B' }], testPercent: 20, waitMinutes: 60, winnerBy: 'OPENS' };

describe('POST /campaigns', () => {
  it('creates a DRAFT, wrapped as { success, data }, with the fields of the Campaign table', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test');
    await addContact(t, 'bob@example.test', {}, false);
    const res = await t.c
      .post('/campaigns')
      .send(campaignBody(t, { description: 'April', fromName: 'Shop', replyTo: 'help@example.test' }))
      .expect(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(UUID),
        name: 'Spring sale',
        description: 'April',
        subject: 'Hello {{ name ?? "friend" }}',
        body: '<p>Spring is here, {{ name ?? "friend" }}</p>',
        text: null,
        abTest: null,
        from: t.from,
        fromName: 'Shop',
        replyTo: 'help@example.test',
        type: 'MARKETING',
        templateId: null,
        status: 'DRAFT',
        audienceType: 'ALL',
        segmentId: null,
        audienceCondition: null,
        topicId: null,
        scheduledFor: null,
        tags: {},
        totalRecipients: 1,
        sentCount: 0,
        deliveredCount: 0,
        openedCount: 0,
        clickedCount: 0,
        bouncedCount: 0,
        projectId: t.project.id,
        sentAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
  });

  it('counts every contact for a TRANSACTIONAL campaign and only subscribed ones otherwise, live while DRAFT', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test');
    await addContact(t, 'bob@example.test', {}, false);
    const marketing = await createCampaign(t);
    const transactional = await createCampaign(t, { type: 'TRANSACTIONAL' });
    expect([marketing.totalRecipients, transactional.totalRecipients]).toEqual([1, 2]);
    await addContact(t, 'cat@example.test');
    await t.c
      .patch(`/contacts/${await addContact(t, 'bob@example.test')}`)
      .send({ subscribed: true })
      .expect(200);
    expect((await t.c.get(`/campaigns/${marketing.id}`).expect(200)).body.totalRecipients).toBe(3);
  });

  it('takes SEGMENT and FILTERED audiences and counts them', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    await addContact(t, 'bob@example.test', { plan: 'free' });
    await addContact(t, 'cat@example.test', { plan: 'pro' }, false);
    const segment = (
      await t.c
        .post('/segments')
        .send({ name: 'Pro', condition: allOf(filter('data.plan', 'equals', 'pro')) })
        .expect(201)
    ).body;
    const bySegment = await createCampaign(t, { audienceType: 'SEGMENT', segmentId: segment.id });
    const filtered = await createCampaign(t, { audienceType: 'FILTERED', audienceCondition: allOf(filter('data.plan', 'equals', 'free')) });
    expect(bySegment).toMatchObject({ audienceType: 'SEGMENT', segmentId: segment.id, totalRecipients: 1 });
    expect(filtered).toMatchObject({
      audienceType: 'FILTERED',
      audienceCondition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'free' }] }] },
      totalRecipients: 1,
    });
  });

  it('takes a FILTERED audience on data no contact has yet, and counts it once the data arrives (docs/filters.md)', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'early@example.test');
    const pro = await createCampaign(t, { audienceType: 'FILTERED', audienceCondition: allOf(filter('data.plan', 'equals', 'pro')) });
    expect(pro.totalRecipients).toBe(0);
    const draft = await createCampaign(t);
    const seats = { audienceType: 'FILTERED', audienceCondition: allOf(filter('data.seats', 'greaterThan', 5)) };
    expect((await t.c.put(`/campaigns/${draft.id}`).send(campaignBody(t, seats)).expect(200)).body.totalRecipients).toBe(0);

    await addContact(t, 'ann@example.test', { plan: 'pro', seats: '10' });
    await t.c.track({ event: 'signup', email: 'bob@example.test', data: { plan: 'pro', seats: 3 } }).expect(200);
    await addContact(t, 'cat@example.test', { plan: 'pro', seats: 20 }, false);
    expect((await t.c.get(`/campaigns/${pro.id}`).expect(200)).body.totalRecipients).toBe(2);
    // The first value typed `seats` as a string, which has no ordering: the stored filter now compares nothing.
    expect((await t.c.get(`/campaigns/${draft.id}`).expect(200)).body.totalRecipients).toBe(0);
    expect((await sendNow(t, pro.id)).message).toBe('Campaign is being sent to 2 recipients');
    // Sending to nobody is refused (docs/campaigns.md "Sending"), and changes nothing.
    const refused = await t.c.post(`/campaigns/${draft.id}/send`).send({}).expect(422);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'audience', code: 'empty_audience' }] });
    expect((await t.c.get(`/campaigns/${draft.id}`).expect(200)).body.status).toBe('DRAFT');
  });

  it('refuses to send now to an audience that reaches nobody, says why and how to fix it, and still schedules it', async () => {
    const t = await campaignTenant(stack);
    // A contact that is not subscribed, as /v1/send makes them.
    await addContact(t, 'quiet@example.test', {}, false);
    const campaign = await createCampaign(t);
    const refused = await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(422);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The campaign would be sent to nobody: no subscribed contact matches its audience',
      errors: [{ field: 'audience', code: 'empty_audience', message: 'No subscribed contact matches the audience' }],
    });
    expect(refused.body.error.suggestion).toContain('not subscribed');
    expect((await t.c.get(`/campaigns/${campaign.id}`).expect(200)).body).toMatchObject({ status: 'DRAFT', sentAt: null });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await t.c.post(`/campaigns/${campaign.id}/send`).send({ scheduledFor: at }).expect(200)).body.data.status).toBe('SCHEDULED');
    await t.c.post(`/campaigns/${campaign.id}/cancel`).send({}).expect(200);
  });

  it('fills what the body leaves out from templateId, and reports the campaign in the template usage', async () => {
    const t = await campaignTenant(stack);
    const template = (
      await t.c
        .post('/templates')
        .send({ name: 'T', subject: 'From template', body: '<p>T</p>', from: t.from, fromName: 'Tpl', type: 'TRANSACTIONAL' })
        .expect(201)
    ).body;
    const res = await t.c
      .post('/campaigns')
      .send({ name: 'From T', templateId: template.id, audienceType: 'ALL', subject: 'Own subject' })
      .expect(201);
    expect(res.body.data).toMatchObject({
      templateId: template.id,
      subject: 'Own subject',
      body: '<p>T</p>',
      from: t.from,
      fromName: 'Tpl',
      type: 'TRANSACTIONAL',
    });
    expect((await t.c.get(`/templates/${template.id}/usage`).expect(200)).body).toEqual({
      campaigns: [{ id: res.body.data.id, name: 'From T' }],
      workflows: [],
      forms: [],
    });
  });

  it('keeps an A/B test with the campaign, and refuses a variant sender on an unverified domain with 403', async () => {
    const t = await campaignTenant(stack);
    const abTest = { ...AB, variants: [{ subject: 'A' }, { from: t.from, fromName: 'Other', body: '<p>B</p>' }] };
    const created = (await t.c.post('/campaigns').send(campaignBody(t, { abTest })).expect(201)).body.data;
    expect(created.abTest).toEqual(abTest);
    expect((await t.c.get(`/campaigns/${created.id}`).expect(200)).body.abTest).toEqual(abTest);
    const copy = (await t.c.post(`/campaigns/${created.id}/duplicate`).expect(201)).body;
    expect(copy.abTest).toEqual(abTest);
    expect((await t.c.get(`/campaigns/${created.id}/variants`).expect(200)).body).toEqual({
      winnerBy: 'OPENS',
      testPercent: 20,
      waitMinutes: 60,
      winner: null,
      decidedBy: null,
      decidedAt: null,
      variants: [
        expect.objectContaining({ variant: 0, name: 'A', subject: 'A', from: t.from, recipients: 0, sentCount: 0, openRate: 0 }),
        expect.objectContaining({ variant: 1, name: 'B', subject: created.subject, fromName: 'Other', recipients: 0 }),
      ],
    });
    await t.c.post(`/campaigns/${created.id}/winner`).send({ variant: 0 }).expect(409);
    await expectUnchanged(t, async () => {
      const res = await t.c
        .post('/campaigns')
        .send(campaignBody(t, { abTest: { ...AB, variants: [{ subject: 'A' }, { from: 'news@unverified.example.test' }] } }))
        .expect(403);
      expect(res.body.error.code).toBe('INTERNAL_SERVER_ERROR');
    });
  });

  it('refuses a sender on a domain that is not verified with 403 INTERNAL_SERVER_ERROR, storing nothing', async () => {
    const t = await campaignTenant(stack);
    await expectUnchanged(t, async () => {
      const res = await t.c
        .post('/campaigns')
        .send(campaignBody(t, { from: 'news@unverified.example.test' }))
        .expect(403);
      expect(res.body.error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', statusCode: 403 });
    });
  });

  it.each([
    ['a missing name', { name: undefined }, 'name'],
    ['a missing subject without a template', { subject: undefined }, 'subject'],
    ['a missing body without a template', { body: undefined }, 'body'],
    ['a missing from without a template', { from: undefined }, 'from'],
    ['a malformed from', { from: 'not-an-address' }, 'from'],
    ['an unknown type', { type: 'NEWSLETTER' }, 'type'],
    ['a missing audienceType', { audienceType: undefined }, 'audienceType'],
    ['an unknown audienceType', { audienceType: 'EVERYONE' }, 'audienceType'],
    ['SEGMENT without segmentId', { audienceType: 'SEGMENT' }, 'segmentId'],
    ['FILTERED without audienceCondition', { audienceType: 'FILTERED' }, 'audienceCondition'],
    ['a segment of no project', { audienceType: 'SEGMENT', segmentId: randomUUID() }, 'segmentId'],
    ['an unknown templateId', { templateId: randomUUID() }, 'templateId'],
    ['Liquid that does not parse', { body: '<p>{% if %}</p>' }, 'body'],
    ['an A/B test of one variant', { abTest: { ...AB, variants: [{ subject: 'A' }] } }, 'abTest.variants'],
    [
      'an A/B test of five variants',
      { abTest: { ...AB, variants: ['A', 'B', 'C', 'D', 'E'].map((subject) => ({ subject })) } },
      'abTest.variants',
    ],
    ['a variant that changes nothing', { abTest: { ...AB, variants: [{ subject: 'A' }, {}] } }, 'abTest.variants.1'],
    ['a test share of 0%', { abTest: { ...AB, testPercent: 0 } }, 'abTest.testPercent'],
    ['a test share of 95%', { abTest: { ...AB, testPercent: 95 } }, 'abTest.testPercent'],
    ['no waiting time', { abTest: { ...AB, waitMinutes: 0 } }, 'abTest.waitMinutes'],
    ['an unknown winner rule', { abTest: { ...AB, winnerBy: 'REPLIES' } }, 'abTest.winnerBy'],
    [
      "a variant's Liquid that does not parse",
      { abTest: { ...AB, variants: [{ subject: 'A' }, { body: '{% if %}' }] } },
      'abTest.variants[1].body',
    ],
  ])('answers %s with 422 naming the field, storing nothing', async (_what, overrides, field) => {
    const t = await campaignTenant(stack);
    await expectUnchanged(t, async () => {
      const res = await t.c.post('/campaigns').send(campaignBody(t, overrides)).expect(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  it("refuses another project's segment as if it did not exist", async () => {
    const t = await campaignTenant(stack);
    const other = await campaignTenant(stack);
    const segment = (await other.c.post('/segments').send({ name: 'Theirs', type: 'STATIC' }).expect(201)).body;
    await expectUnchanged(t, async () => {
      const res = await t.c
        .post('/campaigns')
        .send(campaignBody(t, { audienceType: 'SEGMENT', segmentId: segment.id }))
        .expect(422);
      expect(res.body.error.errors).toEqual([{ field: 'segmentId', message: 'No such segment in this project', code: 'not_found' }]);
    });
  });

  it.each([
    ['an unknown field', allOf(filter('plan', 'equals', 'pro')), 'audienceCondition.groups.0.filters.0.field', /Unknown field "plan"/],
    ['an unknown operator', allOf(filter('email', 'resembles', 'x')), 'audienceCondition.groups.0.filters.0.operator', /Unknown operator/],
    ['a missing unit', allOf(filter('createdAt', 'within', 3)), 'audienceCondition.groups.0.filters.0.unit', /needs a unit/],
    ['an empty data path', allOf(filter('data.', 'equals', 1)), 'audienceCondition.groups.0.filters.0.field', /Unknown field "data\."/],
    [
      'an unknown email activity',
      allOf(filter('email.nope', 'triggered')),
      'audienceCondition.groups.0.filters.0.field',
      /Unknown field "email\.nope"/,
    ],
    [
      'a value its unseen field cannot compare',
      allOf(filter('data.never', 'greaterThan', 'x')),
      'audienceCondition.groups.0.filters.0.operator',
      /does not apply to data\.never/,
    ],
    ['a tree that is not one', 'everyone', 'audienceCondition', /expected object/],
  ])('answers a FILTERED audience with %s with 400 naming it, storing nothing', async (_what, audienceCondition, field, message) => {
    const t = await campaignTenant(stack);
    await expectUnchanged(t, async () => {
      const res = await t.c
        .post('/campaigns')
        .send(campaignBody(t, { audienceType: 'FILTERED', audienceCondition }))
        .expect(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.errors[0].field).toBe(field);
    });
  });
});

describe('GET /campaigns', () => {
  async function threeCampaigns(t: SenderTenant) {
    const a = await createCampaign(t, { name: 'banana', subject: 'Fruit news' });
    const b = await createCampaign(t, { name: 'Apple', subject: 'Orchard' });
    const c = await createCampaign(t, { name: 'cherry', subject: 'More fruit', from: `deals@${t.domain}` });
    return { a, b, c };
  }

  it('pages with { data, page, pageSize, total, totalPages }, newest first by default', async () => {
    const t = await campaignTenant(stack);
    const { a, b, c } = await threeCampaigns(t);
    const first = (await t.c.get('/campaigns?pageSize=2').expect(200)).body;
    expect({ ...first, data: first.data.map((x: { id: string }) => x.id) }).toEqual({
      data: [c.id, b.id],
      page: 1,
      pageSize: 2,
      total: 3,
      totalPages: 2,
    });
    const second = (await t.c.get('/campaigns?pageSize=2&page=2').expect(200)).body;
    expect(second.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await t.c.get('/campaigns?pageSize=500').expect(200)).body.pageSize).toBe(100);
  });

  it('sorts by name as people read it, by createdAt or updatedAt, either way', async () => {
    const t = await campaignTenant(stack);
    await threeCampaigns(t);
    const names = async (q: string) => (await t.c.get(`/campaigns?${q}`).expect(200)).body.data.map((x: { name: string }) => x.name);
    expect(await names('sort=name&dir=asc')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await names('sort=name&dir=desc')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('sort=createdAt&dir=asc')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await names('sort=updatedAt')).toEqual(['cherry', 'Apple', 'banana']);
    expect(await names('sort=size&dir=sideways')).toEqual(['cherry', 'Apple', 'banana']);
  });

  it('searches name, subject and sender address, case-insensitively and literally', async () => {
    const t = await campaignTenant(stack);
    await threeCampaigns(t);
    const names = async (search: string) =>
      (await t.c.get(`/campaigns?search=${encodeURIComponent(search)}&sort=name&dir=asc`).expect(200)).body.data.map(
        (x: { name: string }) => x.name,
      );
    expect(await names('APPLE')).toEqual(['Apple']);
    expect(await names('fruit')).toEqual(['banana', 'cherry']);
    expect(await names('deals@')).toEqual(['cherry']);
    expect(await names('%')).toEqual([]);
  });

  it('filters by status, and answers an unrecognised status with 400', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'reader@example.test');
    const { a } = await threeCampaigns(t);
    await sendNow(t, a.id);
    const sending = (await t.c.get('/campaigns?status=SENDING').expect(200)).body;
    expect(sending.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect((await t.c.get('/campaigns?status=DRAFT').expect(200)).body.total).toBe(2);
    const res = await t.c.get('/campaigns?status=PAUSED').expect(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', errors: [expect.objectContaining({ field: 'query.status' })] });
  });

  it("never lists another project's campaigns", async () => {
    const t = await campaignTenant(stack);
    const other = await campaignTenant(stack);
    await createCampaign(other);
    expect((await t.c.get('/campaigns').expect(200)).body).toEqual({ data: [], page: 1, pageSize: 20, total: 0, totalPages: 0 });
  });
});

describe('GET, PUT and DELETE /campaigns/{id}', () => {
  it("answers 404 CAMPAIGN_NOT_FOUND for another project's campaign and for a malformed id", async () => {
    const t = await campaignTenant(stack);
    const other = await campaignTenant(stack);
    const theirs = await createCampaign(other);
    await expectUnchanged(other, async () => {
      expect((await t.c.get(`/campaigns/${theirs.id}`).expect(404)).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
      await t.c.put(`/campaigns/${theirs.id}`).send(campaignBody(t)).expect(404);
      await t.c.delete(`/campaigns/${theirs.id}`).expect(404);
      await t.c.post(`/campaigns/${theirs.id}/send`).send({}).expect(404);
      await t.c.post(`/campaigns/${theirs.id}/cancel`).expect(404);
      await t.c.post(`/campaigns/${theirs.id}/duplicate`).expect(404);
      await t.c.get(`/campaigns/${theirs.id}/stats`).expect(404);
      expect((await t.c.get('/campaigns/not-a-uuid').expect(404)).body.error.code).toBe('CAMPAIGN_NOT_FOUND');
    });
  });

  it('replaces every field of a DRAFT: left-out optional fields are cleared', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t, { description: 'old', fromName: 'Old', replyTo: 'old@example.test' });
    const res = await t.c
      .put(`/campaigns/${draft.id}`)
      .send({ name: 'Summer', subject: 'Sun', body: '<p>Sun</p>', from: t.from, audienceType: 'ALL', type: 'TRANSACTIONAL' })
      .expect(200);
    expect(res.body).toMatchObject({
      id: draft.id,
      name: 'Summer',
      subject: 'Sun',
      description: null,
      fromName: null,
      replyTo: null,
      type: 'TRANSACTIONAL',
      status: 'DRAFT',
    });
  });

  it('replaces a SCHEDULED campaign, keeping its schedule', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    const at = inAnHour();
    await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor: at }).expect(200);
    const res = await t.c
      .put(`/campaigns/${draft.id}`)
      .send(campaignBody(t, { name: 'Renamed' }))
      .expect(200);
    expect(res.body).toMatchObject({ name: 'Renamed', status: 'SCHEDULED', scheduledFor: at });
  });

  it('refuses to replace or delete a SENDING campaign with 409, changing nothing', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'reader@example.test');
    const draft = await createCampaign(t);
    await sendNow(t, draft.id);
    await expectUnchanged(t, async () => {
      const put = await t.c
        .put(`/campaigns/${draft.id}`)
        .send(campaignBody(t, { name: 'Too late' }))
        .expect(409);
      expect(put.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'SENDING' } });
      expect((await t.c.delete(`/campaigns/${draft.id}`).expect(409)).body.error.code).toBe('CONFLICT');
    });
  });

  it('refuses to delete a SCHEDULED campaign with 409, and deletes a DRAFT', async () => {
    const t = await campaignTenant(stack);
    const scheduled = await createCampaign(t);
    await t.c.post(`/campaigns/${scheduled.id}/send`).send({ scheduledFor: inAnHour() }).expect(200);
    await expectUnchanged(t, () => t.c.delete(`/campaigns/${scheduled.id}`).expect(409));
    const draft = await createCampaign(t);
    await t.c.delete(`/campaigns/${draft.id}`).expect(204);
    await t.c.get(`/campaigns/${draft.id}`).expect(404);
  });

  it('validates a replacement like a creation, changing nothing on failure', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    await expectUnchanged(t, async () => {
      await t.c
        .put(`/campaigns/${draft.id}`)
        .send(campaignBody(t, { audienceType: 'SEGMENT' }))
        .expect(422);
      await t.c
        .put(`/campaigns/${draft.id}`)
        .send(campaignBody(t, { audienceType: 'FILTERED', audienceCondition: allOf(filter('nope', 'equals', 1)) }))
        .expect(400);
      await t.c
        .put(`/campaigns/${draft.id}`)
        .send(campaignBody(t, { from: 'x@unverified.example.test' }))
        .expect(403);
    });
  });
});

describe('POST /campaigns/{id}/duplicate', () => {
  it('copies content and audience into a new DRAFT named "<name> (Copy)"', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const source = await createCampaign(t, { audienceType: 'FILTERED', audienceCondition: allOf(filter('data.plan', 'equals', 'pro')) });
    await sendNow(t, source.id);
    const res = await t.c.post(`/campaigns/${source.id}/duplicate`).expect(201);
    expect(res.body).toMatchObject({
      name: 'Spring sale (Copy)',
      status: 'DRAFT',
      subject: source.subject,
      audienceType: 'FILTERED',
      audienceCondition: source.audienceCondition,
      scheduledFor: null,
      totalRecipients: 1,
    });
    expect(res.body.id).not.toBe(source.id);
  });
});

describe('POST /campaigns/{id}/send', () => {
  it('sends now: SENDING in the response, under the workflow campaign:<id>', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test');
    const draft = await createCampaign(t);
    const body = await sendNow(t, draft.id);
    expect(body).toEqual({
      success: true,
      data: { id: draft.id, name: 'Spring sale', status: 'SENDING', scheduledFor: null },
      message: 'Campaign is being sent to 1 recipient',
    });
    const described = await stack.deps.temporal.client.workflow.getHandle(`campaign:${draft.id}`).describe();
    expect(described.status.name).toBe('RUNNING');
  });

  it('schedules: SCHEDULED with the time, stated in the message; a SCHEDULED campaign can be rescheduled', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    const at = new Date(Date.now() + 86_400_000);
    const res = await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor: at.toISOString() }).expect(200);
    expect(res.body).toEqual({
      success: true,
      data: { id: draft.id, name: 'Spring sale', status: 'SCHEDULED', scheduledFor: at.toISOString() },
      message: `Campaign scheduled for ${at.toISOString()}`,
    });
    const later = new Date(at.getTime() + 3_600_000);
    const moved = await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor: later.toISOString() }).expect(200);
    expect(moved.body.data).toMatchObject({ status: 'SCHEDULED', scheduledFor: later.toISOString() });
  });

  it.each([
    ['an offset', '2099-05-01T11:30:00+02:00', '2099-05-01T09:30:00.000Z'],
    ['no offset (UTC)', '2099-05-01T09:30', '2099-05-01T09:30:00.000Z'],
    ['a space and fractions', '2099-05-01 09:30:00.5Z', '2099-05-01T09:30:00.500Z'],
    ['a bare date', '2099-05-01', '2099-05-01T00:00:00.000Z'],
    ['RFC 2822', 'Fri, 01 May 2099 09:30:00 GMT', '2099-05-01T09:30:00.000Z'],
    ['epoch milliseconds', Date.UTC(2099, 4, 1, 9, 30), '2099-05-01T09:30:00.000Z'],
  ])('reads scheduledFor with %s', async (_what, scheduledFor, expected) => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    const res = await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor }).expect(200);
    expect(res.body.data.scheduledFor).toBe(expected);
  });

  it.each([
    ['unparseable', 'next tuesday', /cannot read/],
    ['an impossible day', '2099-02-30T10:00:00Z', /cannot read/],
    ['an impossible hour', '2099-05-01T24:00:00Z', /cannot read/],
    ['not a date at all', { at: 'soon' }, /cannot read/],
    ['in the past', '2020-01-01T00:00:00Z', /must be in the future/],
  ])('answers scheduledFor %s with 400, changing nothing', async (_what, scheduledFor, message) => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    await expectUnchanged(t, async () => {
      const res = await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', errors: [expect.objectContaining({ field: 'scheduledFor' })] });
      expect(res.body.error.message).toMatch(message);
    });
    await expect(stack.deps.temporal.client.workflow.getHandle(`campaign:${draft.id}`).describe()).rejects.toThrow();
  });

  it('refuses a SENDING campaign with 409, changing nothing', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'reader@example.test');
    const draft = await createCampaign(t);
    await sendNow(t, draft.id);
    await expectUnchanged(t, () => t.c.post(`/campaigns/${draft.id}/send`).send({}).expect(409));
  });

  it('refuses with 422 when the audience segment was deleted since, and with 403 when the sender domain was', async () => {
    const t = await campaignTenant(stack);
    const segment = (await t.c.post('/segments').send({ name: 'S', type: 'STATIC' }).expect(201)).body;
    const bySegment = await createCampaign(t, { audienceType: 'SEGMENT', segmentId: segment.id });
    await sql(stack, 'delete from segments where id = ?', [segment.id]);
    await expectUnchanged(t, () => t.c.post(`/campaigns/${bySegment.id}/send`).send({}).expect(422));
    const all = await createCampaign(t);
    await sql(stack, 'update domains set verified = false where project_id = ?', [t.project.id]);
    await expectUnchanged(t, () => t.c.post(`/campaigns/${all.id}/send`).send({}).expect(403));
  });
});

describe('POST /campaigns/{id}/cancel', () => {
  it('takes a SCHEDULED campaign back to DRAFT with scheduledFor cleared, ending its run', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    await t.c.post(`/campaigns/${draft.id}/send`).send({ scheduledFor: inAnHour() }).expect(200);
    const res = await t.c.post(`/campaigns/${draft.id}/cancel`).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      data: { id: draft.id, status: 'DRAFT', scheduledFor: null },
      message: expect.any(String),
    });
    const described = await stack.deps.temporal.client.workflow.getHandle(`campaign:${draft.id}`).describe();
    expect(described.status.name).toBe('TERMINATED');
  });

  it('refuses a DRAFT with 409, changing nothing', async () => {
    const t = await campaignTenant(stack);
    const draft = await createCampaign(t);
    await expectUnchanged(t, async () => {
      const res = await t.c.post(`/campaigns/${draft.id}/cancel`).expect(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { status: 'DRAFT' } });
    });
  });
});

describe('GET /campaigns/{id}/stats', () => {
  it('gives every figure of docs/campaigns.md, zero before sending, with the live audience', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test');
    const draft = await createCampaign(t);
    expect((await t.c.get(`/campaigns/${draft.id}/stats`).expect(200)).body).toEqual({
      totalRecipients: 1,
      sentCount: 0,
      deliveredCount: 0,
      openedCount: 0,
      clickedCount: 0,
      bouncedCount: 0,
      complainedCount: 0,
      unsubscribedCount: 0,
      cappedCount: 0,
      openRate: 0,
      clickRate: 0,
      bounceRate: 0,
      deliveryRate: 0,
    });
  });
});

describe('what campaigns hold on to', () => {
  it('makes DELETE /segments/{id} a 409 while a DRAFT, SCHEDULED or SENDING campaign uses it, not once it is SENT', async () => {
    const t = await campaignTenant(stack);
    const segment = (await t.c.post('/segments').send({ name: 'S', type: 'STATIC' }).expect(201)).body;
    const campaign = await createCampaign(t, { audienceType: 'SEGMENT', segmentId: segment.id });
    const res = await t.c.delete(`/segments/${segment.id}`).expect(409);
    expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { campaigns: 1 } });
    await sql(stack, "update campaigns set status = 'SENT' where id = ?", [campaign.id]);
    await t.c.delete(`/segments/${segment.id}`).expect(204);
  });

  it('lists campaigns whose FILTERED audience names a field or an event in their usage', async () => {
    const t = await campaignTenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const c = await createCampaign(t, {
      audienceType: 'FILTERED',
      audienceCondition: allOf(filter('data.plan', 'equals', 'pro'), filter('event.signup', 'triggered')),
    });
    expect((await t.c.get('/contacts/fields/data.plan/usage').expect(200)).body.campaigns).toEqual([{ id: c.id, name: 'Spring sale' }]);
    expect((await t.c.get('/events/signup/usage').expect(200)).body.campaigns).toEqual([{ id: c.id, name: 'Spring sale' }]);
  });
});
