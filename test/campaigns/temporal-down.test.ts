import { Client, Connection } from '@temporalio/client';
import { startStack, type TestStack } from '../helpers/stack';
import { addContact } from '../segments/helpers';
import { sql } from '../helpers/seed';
import { campaignState, createCampaign } from './helpers';
import { client } from '../helpers/tenants';
import { campaignTenant } from '../helpers/tenants';

// Limits, not targets: each refused call waits out the Temporal client's retries (about 20 s) before the 503.
jest.setTimeout(180_000);

// Nothing listens on port 1: every Temporal call of `down` fails as it would during an outage. `up` shares
// the database and sets tenants up (adding a sender domain starts its check loop).
const connection = Connection.lazy({ address: '127.0.0.1:1' });
let up: TestStack;
let down: TestStack;
beforeAll(async () => {
  up = await startStack({ terminateWorkflows: true });
  down = await startStack({ temporal: { client: new Client({ connection }), taskQueue: 'unreachable', searchAttributes: true } });
});
afterAll(async () => {
  await down?.close();
  await connection.close();
  await up?.close();
});

describe('campaigns while Temporal is unreachable', () => {
  it('answers 503 to sending, now or scheduled, and changes nothing', async () => {
    const t = await campaignTenant(up);
    await addContact(t, 'ann@example.test');
    const campaign = await createCampaign(t);
    const c = client(down, t.project);
    const before = await campaignState(up, t.project.id);
    for (const body of [{}, { scheduledFor: new Date(Date.now() + 3_600_000).toISOString() }]) {
      const res = await c.post(`/campaigns/${campaign.id}/send`).send(body);
      expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    }
    expect(await campaignState(up, t.project.id)).toEqual(before);
  });

  it("answers 503 to choosing an A/B test's winner, and stores no choice", async () => {
    const t = await campaignTenant(up);
    const campaign = await createCampaign(t, {
      abTest: { variants: [{ subject: 'A' }, { subject: 'B' }], testPercent: 20, waitMinutes: 60, winnerBy: 'MANUAL' },
    });
    // As a send under way has it (no run needed: the signal is what fails).
    await sql(up, `update campaigns set status = 'SENDING', send_id = gen_random_uuid() where id = ?`, [campaign.id]);
    const before = await campaignState(up, t.project.id);
    const res = await client(down, t.project).post(`/campaigns/${campaign.id}/winner`).send({ variant: 1 });
    expect([res.status, res.body.error?.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(await campaignState(up, t.project.id)).toEqual(before);
    expect((await sql(up, 'select ab_winner from campaigns where id = ?', [campaign.id]))[0]).toEqual({ ab_winner: null });
    await sql(up, `update campaigns set status = 'CANCELLED', send_id = null where id = ?`, [campaign.id]);
  });

  it('still cancels a SCHEDULED campaign back to DRAFT, leaving its run to stop by itself', async () => {
    const t = await campaignTenant(up);
    const campaign = await createCampaign(t);
    await t.c
      .post(`/campaigns/${campaign.id}/send`)
      .send({ scheduledFor: new Date(Date.now() + 3_600_000).toISOString() })
      .expect(200);
    const res = await client(down, t.project).post(`/campaigns/${campaign.id}/cancel`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'DRAFT', scheduledFor: null });
    expect((await up.deps.temporal.client.workflow.getHandle(`campaign:${campaign.id}`).describe()).status.name).toBe('RUNNING');
  });

  it('still serves everything that needs no workflow', async () => {
    const t = await campaignTenant(up);
    const campaign = await createCampaign(t);
    const c = client(down, t.project);
    await c.get(`/campaigns/${campaign.id}`).expect(200);
    await c.get(`/campaigns/${campaign.id}/stats`).expect(200);
    await c.post(`/campaigns/${campaign.id}/duplicate`).expect(201);
    await c.delete(`/campaigns/${campaign.id}`).expect(204);
  });
});
