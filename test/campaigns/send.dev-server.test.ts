import { CampaignIdKey, ProjectIdKey } from '../../workflows/search-attributes';
import { startStack, type TestStack } from '../helpers/stack';
import { startWorker } from '../helpers/temporal';
import { parseMail, waitForMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { joinedUser } from '../helpers/members';
import { addContact, allOf, filter } from '../segments/helpers';
import { send } from '../emails/helpers';
import { campaignWorkflowId, ENQUEUE_AHEAD_BATCHES } from '../../workflows/campaigns/ids';
import { campaignState, createCampaign, seedContacts } from './helpers';
import { newTenant, campaignTenant, type SenderTenant } from '../helpers/tenants';

/** Small batches, so that even small campaigns take several activities. */
const BATCH = 7;

// Limits, not targets: a shared, loaded machine can take a while to run a send of a few hundred emails.
jest.setTimeout(180_000);
const SEND_LIMIT_MS = 90_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { CAMPAIGN_BATCH_SIZE: String(BATCH) }, worker: startWorker, pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const handle = (campaignId: string) => stack.deps.temporal.client.workflow.getHandle(campaignWorkflowId(campaignId));

async function sendNow(t: SenderTenant, id: string) {
  return (await t.c.post(`/campaigns/${id}/send`).send({}).expect(200)).body;
}

async function reachStatus(t: SenderTenant, id: string, status: string, timeoutMs = SEND_LIMIT_MS) {
  return waitFor(
    `campaign ${id} to be ${status}`,
    async () => {
      const body = (await t.c.get(`/campaigns/${id}`).expect(200)).body;
      return body.status === status ? body : undefined;
    },
    timeoutMs,
  );
}

/** Messages the sink received per recipient address, among `addresses`. */
const receivedBy = (addresses: string[]) => addresses.map((a) => stack.smtp.to(a).length);

async function campaignEmails(campaignId: string) {
  return sql<{ status: string; contact_id: string; to_address: string }>(
    stack,
    'select status, contact_id, to_address from emails where campaign_id = ?',
    [campaignId],
  );
}

describe('sending a campaign (dev server, real worker and delivery pump)', () => {
  it('sends one rendered email to each subscribed contact, then is SENT with sentAt and its counts', async () => {
    const t = await campaignTenant(stack);
    const subscribed = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal', 'ivy'].map(
      (n) => `${n}-${t.project.id.slice(0, 8)}@example.test`,
    );
    for (const [i, email] of subscribed.entries()) await addContact(t, email, { name: `Reader ${i}` });
    const unsubscribed = `out-${t.project.id.slice(0, 8)}@example.test`;
    await addContact(t, unsubscribed, { name: 'Out' }, false);
    const campaign = await createCampaign(t);

    const started = await sendNow(t, campaign.id);
    expect(started.data.status).toBe('SENDING');
    const sent = await reachStatus(t, campaign.id, 'SENT');
    expect(sent).toMatchObject({ totalRecipients: 9, sentCount: 9, sentAt: expect.any(String) });
    expect(receivedBy(subscribed)).toEqual(subscribed.map(() => 1));
    expect(stack.smtp.to(unsubscribed)).toEqual([]);

    const mail = await parseMail(stack.smtp.to(subscribed[3]!)[0]!);
    expect(mail.subject).toBe('Hello Reader 3');
    expect(mail.html).toContain('Spring is here, Reader 3');
    expect(mail.from).toMatchObject({ address: t.from });
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@/);

    const emails = await campaignEmails(campaign.id);
    expect(emails).toHaveLength(9);
    expect(new Set(emails.map((e) => e.status))).toEqual(new Set(['SENT']));
    // The recipients stay after the send, for GET /campaigns/{id}/recipients; the unsubscribed contact is none of them.
    const { recipients } = await campaignState(stack, t.project.id);
    expect(recipients.map((r) => r.seq).sort((a, b) => Number(a) - Number(b))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await t.c.get(`/campaigns/${campaign.id}/stats`).expect(200)).body).toMatchObject({
      totalRecipients: 9,
      sentCount: 9,
      deliveredCount: 0,
      openRate: 0,
    });
    expect(await handle(campaign.id).result()).toBe('SENT');
  });

  it('gives MARKETING mail one-click List-Unsubscribe headers (not TRANSACTIONAL mail), and counts who unsubscribed after it', async () => {
    const t = await campaignTenant(stack);
    const ann = `ann-${t.project.id.slice(0, 8)}@example.test`;
    await addContact(t, ann);
    const marketing = await createCampaign(t, { body: '<p>News</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a>' });
    await sendNow(t, marketing.id);
    await reachStatus(t, marketing.id, 'SENT');
    const mail = await parseMail(stack.smtp.to(ann)[0]!);
    const header = (name: string) => mail.headers.find((h) => h.key === name)?.value;
    const link = /^<(https?:\/\/[^>]+\/unsubscribe\/[^>]+)>$/.exec(header('list-unsubscribe') ?? '')?.[1];
    expect(link).toBeDefined();
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.html).toContain('/unsubscribe/');

    await stack.http().post(new URL(link!).pathname).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect((await t.c.get(`/campaigns/${marketing.id}/stats`).expect(200)).body).toMatchObject({ sentCount: 1, unsubscribedCount: 1 });

    const transactional = await createCampaign(t, { type: 'TRANSACTIONAL' });
    await sendNow(t, transactional.id);
    await reachStatus(t, transactional.id, 'SENT');
    const receipt = await parseMail(stack.smtp.to(ann)[1]!);
    expect(receipt.headers.find((h) => h.key === 'list-unsubscribe')).toBeUndefined();
    expect((await t.c.get(`/campaigns/${transactional.id}/stats`).expect(200)).body.unsubscribedCount).toBe(0);
  });

  it('sends a TRANSACTIONAL campaign to unsubscribed contacts too', async () => {
    const t = await campaignTenant(stack);
    const ann = `ann-${t.project.id.slice(0, 8)}@example.test`;
    const bob = `bob-${t.project.id.slice(0, 8)}@example.test`;
    await addContact(t, ann);
    await addContact(t, bob, {}, false);
    const campaign = await createCampaign(t, { type: 'TRANSACTIONAL' });
    await sendNow(t, campaign.id);
    await reachStatus(t, campaign.id, 'SENT');
    expect(receivedBy([ann, bob])).toEqual([1, 1]);
  });

  it('sends to a STATIC segment and to a FILTERED audience, subscribed members only', async () => {
    const t = await campaignTenant(stack);
    const tag = t.project.id.slice(0, 8);
    const [ann, bob, cat] = ['ann', 'bob', 'cat'].map((n) => `${n}-${tag}@example.test`) as [string, string, string];
    await addContact(t, ann, { plan: 'pro' });
    await addContact(t, bob, { plan: 'free' });
    await addContact(t, cat, { plan: 'pro' }, false);
    const segment = (await t.c.post('/segments').send({ name: 'Picked', type: 'STATIC' }).expect(201)).body;
    await t.c
      .post(`/segments/${segment.id}/members`)
      .send({ emails: [bob, cat] })
      .expect(200);

    const bySegment = await createCampaign(t, { name: 'To the segment', audienceType: 'SEGMENT', segmentId: segment.id });
    await sendNow(t, bySegment.id);
    await reachStatus(t, bySegment.id, 'SENT');
    expect(receivedBy([ann, bob, cat])).toEqual([0, 1, 0]);

    const filtered = await createCampaign(t, {
      name: 'To pro',
      audienceType: 'FILTERED',
      audienceCondition: allOf(filter('data.plan', 'equals', 'pro')),
    });
    await sendNow(t, filtered.id);
    await reachStatus(t, filtered.id, 'SENT');
    expect(receivedBy([ann, bob, cat])).toEqual([1, 1, 0]);
  });

  it('fixes the recipients when sending starts: each of a multi-batch audience gets exactly one email', async () => {
    const t = await campaignTenant(stack);
    const total = 20 * BATCH + 3;
    await seedContacts(stack, t.project.id, total, { prefix: `many-${t.project.id.slice(0, 8)}` });
    const campaign = await createCampaign(t);
    await sendNow(t, campaign.id);
    const sent = await reachStatus(t, campaign.id, 'SENT');
    expect(sent).toMatchObject({ totalRecipients: total, sentCount: total });
    const emails = await campaignEmails(campaign.id);
    expect(new Set(emails.map((e) => e.contact_id)).size).toBe(total);
    const addresses = emails.map((e) => e.to_address);
    expect(receivedBy(addresses).every((n) => n === 1)).toBe(true);
  });

  it("is paced by the project's sending rate, and transactional mail of the project overtakes its backlog", async () => {
    const t = await campaignTenant(stack);
    const total = 300;
    const prefix = `paced-${t.project.id.slice(0, 8)}`;
    await seedContacts(stack, t.project.id, total, { prefix });
    const rate = 50;
    await sql(stack, 'update projects set email_rate_per_second = ? where id = ?', [rate, t.project.id]);
    const campaign = await createCampaign(t);
    const isCampaignMail = (m: { to: string[] }) => m.to.some((a) => a.startsWith(prefix));
    await sendNow(t, campaign.id);
    await waitFor(
      'the campaign to be under way',
      async () => (stack.smtp.messages.filter(isCampaignMail).length >= 30 ? true : undefined),
      SEND_LIMIT_MS,
    );

    const urgent = `code-${t.project.id.slice(0, 8)}@example.test`;
    await send(stack, t.project, { to: urgent, from: t.from, subject: 'Your sign-in code', body: '<p>123456</p>' }).expect(200);
    const arrived = await waitFor('the transactional email', async () => stack.smtp.to(urgent)[0]);
    await reachStatus(t, campaign.id, 'SENT');
    const campaignMailAfter = stack.smtp.messages.slice(stack.smtp.messages.indexOf(arrived) + 1).filter(isCampaignMail);
    expect(campaignMailAfter.length).toBeGreaterThan(total / 3);

    // One second's burst goes at once, the rest one every 1/rate seconds.
    const [spread] = await sql<{ seconds: number }>(
      stack,
      'select extract(epoch from max(sent_at) - min(sent_at))::float8 as seconds from emails where campaign_id = ?',
      [campaign.id],
    );
    expect(spread!.seconds).toBeGreaterThanOrEqual((total - rate) / rate - 0.5);
  });

  it(`creates its emails at most ${ENQUEUE_AHEAD_BATCHES} batches ahead of delivery, whatever the audience`, async () => {
    const t = await campaignTenant(stack);
    const total = 200;
    await seedContacts(stack, t.project.id, total, { prefix: `ahead-${t.project.id.slice(0, 8)}` });
    await sql(stack, 'update projects set email_rate_per_second = 40 where id = ?', [t.project.id]);
    const campaign = await createCampaign(t);
    await sendNow(t, campaign.id);
    let most = 0;
    await waitFor(
      'the campaign to be SENT',
      async () => {
        const [queued] = await sql<{ n: number }>(stack, 'select count(*)::int as n from email_queue where campaign_id = ?', [campaign.id]);
        most = Math.max(most, queued!.n);
        const [row] = await sql<{ status: string }>(stack, 'select status from campaigns where id = ?', [campaign.id]);
        return row!.status === 'SENT' ? true : undefined;
      },
      SEND_LIMIT_MS,
    );
    // Without the bound every batch is created within a second or two while the rate lets 40 emails a second go.
    expect(most).toBeGreaterThan(BATCH);
    expect(most).toBeLessThanOrEqual(ENQUEUE_AHEAD_BATCHES * BATCH);
    const addresses = (await campaignEmails(campaign.id)).map((e) => e.to_address);
    expect(addresses).toHaveLength(total);
    expect(receivedBy(addresses).every((n) => n === 1)).toBe(true);
  });

  it('runs under the CampaignId and ProjectId search attributes, with a summary and its progress as details', async () => {
    const t = await campaignTenant(stack);
    for (const n of ['ann', 'bob', 'cat']) await addContact(t, `${n}-${t.project.id.slice(0, 8)}@example.test`);
    const campaign = await createCampaign(t);
    await sendNow(t, campaign.id);
    await reachStatus(t, campaign.id, 'SENT');
    const description = await handle(campaign.id).describe();
    expect(description.typedSearchAttributes.get(CampaignIdKey)).toBe(campaign.id);
    expect(description.typedSearchAttributes.get(ProjectIdKey)).toBe(t.project.id);
    expect(await description.staticSummary()).toBe("Campaign 'Spring sale' to 3 recipients");
    const metadata = await handle(campaign.id).query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toBe('Sent 3 / 3');
    const listed = await waitFor('the visibility record', async () => {
      const found: string[] = [];
      for await (const wf of stack.deps.temporal.client.workflow.list({ query: `CampaignId="${campaign.id}"` })) found.push(wf.workflowId);
      return found.length > 0 ? found : undefined;
    });
    expect(listed).toEqual([campaignWorkflowId(campaign.id)]);
  });

  it('sends the test email only to members, subject prefixed, through the delivery queue, outside the campaign', async () => {
    const t = await campaignTenant(stack);
    const member = await joinedUser(stack, t.user, t.project, 'MEMBER');
    const campaign = await createCampaign(t);
    for (const address of [t.user.email, member.email.toUpperCase()]) {
      const res = await t.c.post(`/campaigns/${campaign.id}/test`).send({ email: address }).expect(200);
      expect(res.body).toMatchObject({ success: true, data: { to: address.toLowerCase(), subject: '[TEST] Hello friend' } });
      const mail = await waitForMail(stack.smtp, address.toLowerCase(), /^\[TEST\]/);
      expect(mail.subject).toBe('[TEST] Hello friend');
    }
    expect((await t.c.get(`/campaigns/${campaign.id}`).expect(200)).body).toMatchObject({ status: 'DRAFT', sentCount: 0 });

    const { user: outsider } = await newTenant(stack);
    const before = await campaignState(stack, t.project.id);
    const refused = await t.c.post(`/campaigns/${campaign.id}/test`).send({ email: outsider.email }).expect(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    await t.c.post(`/campaigns/${campaign.id}/test`).send({ email: 'not an address' }).expect(422);
    await t.c.post(`/campaigns/${campaign.id}/test`).send({}).expect(422);
    expect(await campaignState(stack, t.project.id)).toEqual(before);
  });
});
