import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/logger';
import { TransactionGate } from '../../src/modules/emails/delivery/gate';
import { HandOver } from '../../src/modules/emails/delivery/hand-over';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { withdrawEmails } from '../../src/modules/emails/withdraw';
import { createCampaign } from '../campaigns/helpers';
import { startPump } from '../helpers/pump';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { recipient, send } from './helpers';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';

/**
 * Withdrawal (docs/delivery.md): the row locks that order a cancel's delete with the pump's transaction gate
 * and hand-over, and the claim that withdraws an email of a cancelled campaign coming back to the queue.
 */
let stack: TestStack;
let t: SenderTenant;
let gate: TransactionGate;
let handOver: HandOver;
const pumps: DeliveryPump[] = [];

beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
  t = await campaignTenant(stack);
  gate = new TransactionGate(stack.deps.config.DATABASE_URL, createLogger('silent', 'test'));
  handOver = new HandOver(stack.deps.config.DATABASE_URL, createLogger('silent', 'test'));
});
afterEach(async () => {
  await Promise.all(pumps.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await gate?.close();
  await handOver?.close();
  await stack?.close();
});

/** A campaign in `status` with one PENDING email of it, queued while no pump runs. */
async function campaignEmail(status: string, to = recipient()): Promise<{ campaignId: string; id: string; to: string }> {
  const campaign = await createCampaign(t);
  await sql(stack, 'update campaigns set status = ? where id = ?', [status, campaign.id]);
  const res = await send(stack, t.project, { to, from: t.from, subject: 'Spring', body: '<p>Hi</p>' }).expect(200);
  const id = res.body.data.emails[0].email as string;
  await sql(stack, `update emails set campaign_id = ?, source_type = 'CAMPAIGN' where id = ?`, [campaign.id, id]);
  await sql(stack, `update email_queue set campaign_id = ?, source_type = 'CAMPAIGN', priority = 2 where email_id = ?`, [campaign.id, id]);
  return { campaignId: campaign.id, id, to };
}

/** Leases the email as a worker's claim does. */
async function lease(id: string): Promise<string> {
  const leaseId = randomUUID();
  await sql(
    stack,
    `update email_queue set lease_id = ?, attempts = attempts + 1, due_at = clock_timestamp() + interval '60 seconds' where email_id = ?`,
    [leaseId, id],
  );
  return leaseId;
}

const withdraw = (campaignId: string) => stack.deps.orm.em.fork().transactional((tx) => withdrawEmails(tx, { campaignId }));
const handedOverAt = async (id: string) =>
  (await sql<{ handed_over_at: string | null }>(stack, 'select handed_over_at from email_queue where email_id = ?', [id]))[0]
    ?.handed_over_at ?? null;
const exists = async (id: string) => (await sql(stack, 'select id from emails where id = ?', [id])).length === 1;

describe('withdrawal', () => {
  it('holds a gate round back while a withdrawal holds the row, and then lets nothing begin', async () => {
    const { campaignId, id } = await campaignEmail('SENDING');
    const leaseId = await lease(id);
    let begun = 0;
    // The gate round that comes while the withdrawal's delete holds the row waits for it, then finds nothing.
    const waiting = await stack.deps.orm.em.fork().transactional(async (tx) => {
      expect(await withdrawEmails(tx, { campaignId })).toBe(1);
      const pass = gate.pass(id, leaseId, () => begun++);
      let settled = false;
      void pass.finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      return { pass };
    });
    await expect(waiting.pass).resolves.toBe(false);
    expect(begun).toBe(0);
  });

  it('lets no transaction begun before the withdrawal finish', async () => {
    const { campaignId, id } = await campaignEmail('SENDING');
    const leaseId = await lease(id);
    let begun = 0;
    let dots = 0;
    await expect(gate.pass(id, leaseId, () => begun++)).resolves.toBe(true);
    expect(await withdraw(campaignId)).toBe(1);
    await expect(handOver.pass(id, leaseId, () => dots++)).resolves.toBe(false);
    expect([begun, dots]).toEqual([1, 0]);
  });

  it('leaves an email handed over before it: it has left', async () => {
    const { campaignId, id } = await campaignEmail('SENDING');
    const leaseId = await lease(id);
    await expect(gate.pass(id, leaseId, () => undefined)).resolves.toBe(true);
    await expect(handOver.pass(id, leaseId, () => undefined)).resolves.toBe(true);
    await waitFor('the mark to commit', async () => ((await handedOverAt(id)) ? true : undefined));
    expect(await withdraw(campaignId)).toBe(0);
    expect(await exists(id)).toBe(true);
  });

  it('withdraws, instead of sending again, an email of a cancelled campaign that the server refused for now after its hand-over', async () => {
    const { campaignId, id, to } = await campaignEmail('SENDING');
    // The server takes 1.5 s to answer the end of the message, and then refuses it for now.
    stack.smtp.slowAll(1_500);
    stack.smtp.refuseMessage(to, 451, '4.7.1 Try again later');
    try {
      pumps.push(await startPump(stack.deps));
      await waitFor('the hand-over', async () => ((await handedOverAt(id)) ? true : undefined));
      // The cancel: the email has left (handed over), so the withdrawal leaves it.
      const withdrawn = await stack.deps.orm.em.fork().transactional(async (tx) => {
        await tx.execute(`update campaigns set status = 'CANCELLED' where id = ?`, [campaignId]);
        return withdrawEmails(tx, { campaignId });
      });
      expect(withdrawn).toBe(0);
      stack.smtp.accept(to);
      // The refusal brings it back to the queue, where the claim withdraws it.
      await waitFor('the email to be withdrawn', async () => ((await exists(id)) ? undefined : true), 15_000);
      expect(stack.smtp.to(to)).toHaveLength(0);
    } finally {
      stack.smtp.slowAll(0);
      stack.smtp.accept(to);
    }
  });
});
