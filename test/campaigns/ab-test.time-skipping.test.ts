import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startStack, type TestStack } from '../helpers/stack';
import { gatewayFor, startWorker } from '../helpers/temporal';
import { timeSkippingEnv } from '../helpers/temporal-env';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { quietDomains, sleeping } from '../helpers/time-skipping';
import { addContact } from '../segments/helpers';
import { campaignWorkflowId } from '../../workflows/campaigns/ids';
import { mailTo, pathOf, pixelOf } from '../tracking/helpers';
import { createCampaign } from './helpers';
import { campaignTenant, tenant, type SenderTenant } from '../helpers/tenants';

const MINUTE = 60_000;

// Limits, not targets: a shared, loaded machine can take a while to run a send.
jest.setTimeout(240_000);
const SEND_LIMIT_MS = 120_000;

let env: TestWorkflowEnvironment;
let stack: TestStack;
beforeAll(async () => {
  env = await timeSkippingEnv();
  stack = await startStack({
    temporal: gatewayFor(env, `ab-tests-${randomBytes(4).toString('hex')}`),
    env: { CAMPAIGN_BATCH_SIZE: '3' },
    worker: (deps) => startWorker(deps, env.nativeConnection),
    pump: true,
  });
});
afterAll(async () => {
  await stack?.close();
  await env?.teardown();
});

/** A tenant whose domain check loop is stopped: it would run every five minutes of the time these tests skip. */
async function quietTenant(): Promise<SenderTenant> {
  const t = await campaignTenant(stack);
  await quietDomains(stack, t.project);
  return t;
}

async function audience(t: SenderTenant, count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, (_, i) => `r${i}-${t.project.id.slice(0, 8)}@example.test`);
  for (const address of addresses) await addContact(t, address);
  return addresses;
}

const status = async (t: SenderTenant, id: string) => (await t.c.get(`/campaigns/${id}`).expect(200)).body;
const reach = (t: SenderTenant, id: string, wanted: string) =>
  waitFor(`campaign ${id} to be ${wanted}`, async () => ((await status(t, id)).status === wanted ? true : undefined), SEND_LIMIT_MS);

/** The recipients given each variant, by address. */
const variantsOf = (campaignId: string) =>
  sql<{ email: string; variant: number | null }>(
    stack,
    `select c.email, r.variant from campaign_recipients r join contacts c on c.id = r.contact_id where r.campaign_id = ? order by r.seq`,
    [campaignId],
  );

const sentEmails = (campaignId: string) =>
  sql<{ n: number }>(stack, `select count(*)::int as n from emails where campaign_id = ? and sent_at is not null`, [campaignId]);

const abBody = (winnerBy: string) => ({
  subject: 'Original subject',
  abTest: {
    // B's body differs too: a campaign email's body is rendered as it is sent, with its recipient's variant.
    variants: [{ subject: 'Subject A' }, { subject: 'Subject B', body: '<p>Body B for {{ email }}</p>' }],
    testPercent: 20,
    waitMinutes: 120,
    winnerBy,
  },
});

/** Waits until the run sits in its A/B wait (the test share sent, a timer or a condition pending). */
const judging = (campaignId: string) =>
  waitFor(
    'the run to wait for the winner',
    async () => {
      const { currentDetails } = (await env.client.workflow
        .getHandle(campaignWorkflowId(campaignId))
        .query('__temporal_workflow_metadata')) as {
        currentDetails?: string;
      };
      return currentDetails?.startsWith('A/B test: the variants went to') ? currentDetails : undefined;
    },
    SEND_LIMIT_MS,
  );

describe('A/B tests (time-skipping)', () => {
  it('sends the variants to equal random parts of the test share, waits, and sends the variant with the most opens to the rest, each once', async () => {
    const t = await quietTenant();
    const addresses = await audience(t, 20);
    const campaign = await createCampaign(t, abBody('OPENS'));
    expect(campaign.abTest).toMatchObject({ testPercent: 20, waitMinutes: 120, winnerBy: 'OPENS' });
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);

    expect(await judging(campaign.id)).toMatch(/^A\/B test: the variants went to 4 recipients; the winner is chosen at /);
    const drawn = await variantsOf(campaign.id);
    expect(drawn.filter((r) => r.variant === 0)).toHaveLength(2);
    expect(drawn.filter((r) => r.variant === 1)).toHaveLength(2);
    await waitFor('the test share to be sent', async () => ((await sentEmails(campaign.id))[0]!.n === 4 ? true : undefined), SEND_LIMIT_MS);
    // Nothing went to the rest yet.
    expect(addresses.filter((a) => stack.smtp.to(a).length > 0)).toHaveLength(4);

    // Both of B's recipients open it.
    for (const row of drawn.filter((r) => r.variant === 1)) {
      const mail = await mailTo(stack, row.email);
      expect(mail.subject).toBe('Subject B');
      expect(mail.html).toContain(`Body B for ${row.email}`);
      await stack
        .http()
        .get(pathOf(pixelOf(mail.html as string)!))
        .expect(200);
    }
    for (const row of drawn.filter((r) => r.variant === 0)) {
      const mail = await mailTo(stack, row.email);
      expect(mail.subject).toBe('Subject A');
      expect(mail.html).toContain('Spring is here');
    }

    await env.sleep(121 * MINUTE);
    await reach(t, campaign.id, 'SENT');
    // Everyone once; the rest got B.
    expect(addresses.map((a) => stack.smtp.to(a).length)).toEqual(addresses.map(() => 1));
    for (const row of drawn.filter((r) => r.variant === null)) {
      const mail = await mailTo(stack, row.email);
      expect(mail.subject).toBe('Subject B');
      expect(mail.html).toContain(`Body B for ${row.email}`);
    }

    const test = (await t.c.get(`/campaigns/${campaign.id}/variants`).expect(200)).body;
    expect(test).toMatchObject({ winner: 1, decidedBy: 'OPENS', winnerBy: 'OPENS', decidedAt: expect.any(String) });
    expect(test.variants).toEqual([
      expect.objectContaining({ variant: 0, name: 'A', subject: 'Subject A', recipients: 2, sentCount: 2, openedCount: 0, openRate: 0 }),
      expect.objectContaining({ variant: 1, name: 'B', subject: 'Subject B', recipients: 2, sentCount: 2, openedCount: 2, openRate: 100 }),
    ]);
    await t.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 0 }).expect(409);
  });

  it('chosen by hand: waits however long it takes; the choice sends the rest at once; a second choice is 409', async () => {
    const t = await quietTenant();
    const addresses = await audience(t, 10);
    const campaign = await createCampaign(t, abBody('MANUAL'));
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    expect(await judging(campaign.id)).toBe('A/B test: the variants went to 2 recipients; waiting for the winner to be chosen by hand');
    await env.sleep(3 * 24 * 60 * MINUTE);
    expect((await status(t, campaign.id)).status).toBe('SENDING');

    const bad = await t.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 3 }).expect(422);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    await t.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 'A' }).expect(422);
    const other = await tenant(stack);
    expect((await other.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 0 }).expect(404)).body.error.code).toBe(
      'CAMPAIGN_NOT_FOUND',
    );
    expect((await status(t, campaign.id)).status).toBe('SENDING');

    const chosen = await t.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 0 }).expect(200);
    expect(chosen.body).toMatchObject({ success: true, message: 'Variant A goes to the rest', data: { winner: 0, decidedBy: 'MANUAL' } });
    await reach(t, campaign.id, 'SENT');
    expect(addresses.map((a) => stack.smtp.to(a).length)).toEqual(addresses.map(() => 1));
    for (const row of (await variantsOf(campaign.id)).filter((r) => r.variant === null)) {
      expect((await mailTo(stack, row.email)).subject).toBe('Subject A');
    }
    await t.c.post(`/campaigns/${campaign.id}/winner`).send({ variant: 1 }).expect(409);
  });

  it('cancelled while it waits: CANCELLED, the rest never sent and listed as never attempted', async () => {
    const t = await quietTenant();
    const addresses = await audience(t, 10);
    const campaign = await createCampaign(t, abBody('CLICKS'));
    await t.c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
    await judging(campaign.id);
    await waitFor('the test share to be sent', async () => ((await sentEmails(campaign.id))[0]!.n === 2 ? true : undefined), SEND_LIMIT_MS);
    // The cancel terminates the run: only once it sleeps on the wait's timer, or the skip below could wait in real time.
    await sleeping(env, campaignWorkflowId(campaign.id));
    const res = await t.c.post(`/campaigns/${campaign.id}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'CANCELLED', sentCount: 2 });
    await env.sleep(200 * MINUTE);
    expect(addresses.filter((a) => stack.smtp.to(a).length > 0)).toHaveLength(2);
    expect((await t.c.get(`/campaigns/${campaign.id}/recipients`).query({ status: 'NOT_ATTEMPTED' }).expect(200)).body.total).toBe(8);
    const plain = await createCampaign(t);
    await t.c.post(`/campaigns/${plain.id}/winner`).send({ variant: 0 }).expect(409);
    expect((await t.c.get(`/campaigns/${plain.id}/variants`).expect(200)).body).toMatchObject({ winner: null, variants: [] });
  });
});
