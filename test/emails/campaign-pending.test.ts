import { pendingCampaignEmails, withdrawCampaignEmails } from '../../src/modules/emails/campaign-queue';
import { markSent, writeOutcomes } from '../../src/modules/emails/delivery/outcomes';
import { enqueueEmails } from '../../src/modules/emails/enqueue';
import { campaignDrafts } from '../campaigns/helpers';
import { sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { campaignTenant, type SenderTenant } from '../helpers/tenants';

/**
 * A campaign's pending count (what the send waits on, and what its drained notification answers) is read from
 * the email rollup, not counted in the queue: it must equal the campaign's PENDING emails through every way an
 * email leaves the queue.
 */
let stack: TestStack;
let t: SenderTenant;
beforeAll(async () => {
  stack = await startStack();
  t = await campaignTenant(stack);
});
afterAll(() => stack?.close());

describe("a campaign's pending count", () => {
  it('equals its PENDING emails after sends, failures, suppressions, a deleted contact and a withdrawal', async () => {
    const { contacts, campaign, drafts } = await campaignDrafts(stack, t, 6, 'pending');
    const ids = (await enqueueEmails(stack.deps.orm.em.fork(), drafts)).map((e) => e.id);
    const counts = async () => {
      const [row] = await sql<{ emails: number; queued: number }>(
        stack,
        `select (select count(*)::int from emails where campaign_id = ? and status = 'PENDING') as emails,
           (select count(*)::int from email_queue where campaign_id = ?) as queued`,
        [campaign.id, campaign.id],
      );
      return { pending: await pendingCampaignEmails(stack.deps.orm.em.fork(), campaign.id), ...row };
    };
    expect(await counts()).toEqual({ pending: 6, emails: 6, queued: 6 });

    await stack.deps.orm.em
      .fork()
      .transactional((tx) => markSent(tx, [{ id: ids[0]!, campaignId: campaign.id, at: new Date().toISOString() }]));
    expect(await counts()).toEqual({ pending: 5, emails: 5, queued: 5 });

    const leaseId = crypto.randomUUID();
    await sql(stack, 'update email_queue set lease_id = ? where email_id in (?, ?)', [leaseId, ids[1], ids[2]]);
    await stack.deps.orm.em.fork().transactional((tx) =>
      writeOutcomes(tx, [
        { kind: 'failed', id: ids[1]!, campaignId: campaign.id, leaseId, error: '550 No such user' },
        { kind: 'suppressed', id: ids[2]!, campaignId: campaign.id, leaseId, reason: 'BOUNCE' },
      ]),
    );
    expect(await counts()).toEqual({ pending: 3, emails: 3, queued: 3 });

    // The email goes with its contact at once; its queue row stays until a claim meets it.
    await sql(stack, 'delete from contacts where id = ?', [contacts[3]!.id]);
    expect(await counts()).toEqual({ pending: 2, emails: 2, queued: 3 });

    await stack.deps.orm.em.fork().transactional((tx) => withdrawCampaignEmails(tx, campaign.id));
    expect(await counts()).toEqual({ pending: 0, emails: 0, queued: 0 });
  });
});
