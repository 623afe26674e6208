import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/logger';
import { HandOver } from '../../src/modules/emails/delivery/hand-over';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { startPump } from '../helpers/pump';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { emailRow, recipient, send, settled } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

/**
 * The hand-over mark (docs/delivery.md, "Exactly once"): the terminating dot of a message goes out only
 * under a mark in the database, and an email found marked after its worker died is recorded SENT, not sent
 * again.
 */
let stack: TestStack;
let sender: SenderTenant;
let handOver: HandOver;
const pumps: DeliveryPump[] = [];

beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
  sender = await senderTenant(stack);
  handOver = new HandOver(stack.deps.config.DATABASE_URL, createLogger('silent', 'test'));
});
afterEach(async () => {
  await Promise.all(pumps.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await handOver?.close();
  await stack?.close();
});

/** A PENDING email, queued while no pump runs. */
async function queued(to = recipient()): Promise<{ id: string; to: string }> {
  const res = await send(stack, sender.project, { to, from: sender.from, subject: 'Hand-over', body: '<p>Hi</p>' }).expect(200);
  return { id: res.body.data.emails[0].email as string, to };
}

/** Leases the email as a worker's claim does; `expired` as one whose worker died. */
async function lease(id: string, { expired = false } = {}): Promise<string> {
  const leaseId = randomUUID();
  await sql(
    stack,
    `update email_queue set lease_id = ?, attempts = attempts + 1, due_at = clock_timestamp() + ? * interval '1 second' where email_id = ?`,
    [leaseId, expired ? -1 : 60, id],
  );
  return leaseId;
}

/** The email's hand-over mark while it is queued; undefined once it left the queue. */
const handedOverAt = async (id: string) =>
  (await sql<{ handed_over_at: string | null }>(stack, 'select handed_over_at from email_queue where email_id = ?', [id]))[0]
    ?.handed_over_at;

describe('hand-over', () => {
  it('writes the dot of an email this worker holds, under a mark that is committed', async () => {
    const { id } = await queued();
    const leaseId = await lease(id);
    let dots = 0;
    await expect(handOver.pass(id, leaseId, () => dots++)).resolves.toBe(true);
    expect(dots).toBe(1);
    expect(await waitFor('the mark to commit', async () => (await handedOverAt(id)) ?? undefined)).toBeTruthy();
  });

  it('writes no dot and no mark for an email whose lease another worker took, or that was deleted', async () => {
    const taken = await queued();
    await lease(taken.id);
    const deleted = await queued();
    const deletedLease = await lease(deleted.id);
    await sql(stack, 'delete from emails where id = ?', [deleted.id]);
    let dots = 0;
    const results = await Promise.all([
      handOver.pass(taken.id, randomUUID(), () => dots++),
      handOver.pass(deleted.id, deletedLease, () => dots++),
    ]);
    expect(results).toEqual([false, false]);
    expect(dots).toBe(0);
    expect(await handedOverAt(taken.id)).toBeNull();
  });

  it('marks SENT, without sending it again, an email handed over by a worker that died before recording it', async () => {
    const { id, to } = await queued();
    await lease(id, { expired: true });
    await sql(stack, `update email_queue set handed_over_at = clock_timestamp() - interval '5 seconds' where email_id = ?`, [id]);
    const mark = await handedOverAt(id);
    pumps.push(await startPump(stack.deps));
    const row = await settled(stack, id);
    expect(row).toMatchObject({ status: 'SENT', attempts: 1 });
    expect(row.sent_at).toEqual(mark);
    expect(await handedOverAt(id)).toBeUndefined();
    const events = await sql(stack, `select id from events where name = 'email.sent' and data->>'emailId' = ?`, [id]);
    expect(events).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.smtp.to(to)).toHaveLength(0);
  });

  it('clears the mark when the server refuses the message at its end, so that the retry sends it', async () => {
    const to = recipient();
    stack.smtp.refuseMessage(to, 451, '4.7.1 Try again later');
    try {
      const { id } = await queued(to);
      pumps.push(await startPump(stack.deps));
      const refused = await waitFor('a refused attempt', async () => {
        const row = await emailRow(stack, id);
        return row.attempts >= 1 && row.error ? row : undefined;
      });
      expect(refused).toMatchObject({ status: 'PENDING', error: expect.stringContaining('451') });
      expect(await handedOverAt(id)).toBeNull();
      stack.smtp.accept(to);
      expect(await settled(stack, id)).toMatchObject({ status: 'SENT' });
      expect(stack.smtp.to(to)).toHaveLength(1);
      expect(await handedOverAt(id)).toBeUndefined();
    } finally {
      stack.smtp.accept(to);
    }
  });
});
