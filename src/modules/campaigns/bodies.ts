import type { Config } from '../../config';
import type { Orm } from '../../db/orm';
import { keyLookup } from '../../db/prepared';
import type { Logger } from '../../logger';
import type { ClaimedEmail } from '../emails/delivery/claim';
import type { DeferredBodies, Render } from '../emails/delivery/deferred-bodies';
import { deleteQueued } from '../emails/withdraw';
import type { RecipientContact } from '../templates/render';
import { variantContent } from './ab-test';
import { campaignBody } from './drafts';
import { Campaign } from './entities';
import { recordSkips } from './recipients';

/**
 * What each claimed campaign email's body is rendered from: the variant its recipient gets (its own in an A/B
 * test's share, else the winner) and its contact as it is now, each by key. A contact deleted since has no
 * email left to claim (its emails go with it).
 */
const INPUTS = `
select k."id", coalesce(r."variant", cp."ab_winner")::int as "variant",
  ct."id" as "contact_id", ct."email", ct."subscribed", ct."data"
from jsonb_to_recordset(?::jsonb) as k("id" uuid, "campaign_id" uuid, "contact_id" uuid)
cross join ${keyLookup('campaigns', '"id"', 'k."campaign_id"', '"ab_winner"')} cp
cross join lateral (select "variant" from campaign_recipients
  where "campaign_id" = k."campaign_id" and "contact_id" = k."contact_id" offset 0) r
cross join ${keyLookup('contacts', '"id"', 'k."contact_id"', '"id", "email", "subscribed", "data"')} ct`;

interface InputRow {
  id: string;
  variant: number | null;
  contact_id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/** Campaigns kept at once; a worker sends a few at a time, and one read brings back any it let go. */
const KEPT_CAMPAIGNS = 64;

/**
 * A campaign email's body, rendered by the pump as it is sent (docs/campaigns.md "Sending"): the send stores
 * each recipient's email with its subject only (drafts.ts campaignHead). A campaign's content cannot change
 * once it sends (only DRAFT and SCHEDULED campaigns are edited), so each worker reads it once; the winner of
 * an A/B test, decided during the send, is read with each claim.
 */
export class CampaignBodies implements DeferredBodies {
  private readonly campaigns = new Map<string, Campaign>();

  constructor(private readonly deps: { orm: Orm; config: Config; logger: Logger }) {}

  async prepare(emails: readonly ClaimedEmail[]): Promise<Map<string, Render>> {
    const deferred = emails.filter((e) => e.html === null && e.campaignId !== null && e.contactId !== null);
    const renders = new Map<string, Render>();
    if (deferred.length === 0) return renders;
    const em = this.deps.orm.em.fork();
    const keys = deferred.map((e) => ({ id: e.id, campaign_id: e.campaignId, contact_id: e.contactId }));
    const rows = await em.execute<InputRow[]>(INPUTS, [JSON.stringify(keys)]);
    await this.load(deferred.map((e) => e.campaignId!));
    const campaignOf = new Map(deferred.map((e) => [e.id, this.campaigns.get(e.campaignId!)]));
    for (const row of rows) {
      const campaign = campaignOf.get(row.id);
      if (!campaign) continue;
      const contact: RecipientContact = { id: row.contact_id, email: row.email, subscribed: row.subscribed, data: row.data };
      renders.set(row.id, () => campaignBody(this.deps.config, variantContent(campaign, row.variant), contact));
    }
    return renders;
  }

  /** The email is taken back as a cancel takes it (withdraw.ts), and its recipient skipped as RENDER_FAILED. */
  async unrendered(email: ClaimedEmail, reason: string): Promise<void> {
    this.deps.logger.warn(
      { campaignId: email.campaignId, contactId: email.contactId, reason },
      'campaign email did not render; recipient skipped',
    );
    await this.deps.orm.em.fork().transactional(async (tx) => {
      await tx.execute(deleteQueued(`select ?::uuid as "email_id"`), [email.id]);
      await recordSkips(tx, email.campaignId!, [{ contactId: email.contactId!, reason: 'RENDER_FAILED', detail: reason }]);
    });
  }

  private async load(ids: string[]): Promise<void> {
    const needed = [...new Set(ids)];
    if (this.campaigns.size + needed.filter((id) => !this.campaigns.has(id)).length > KEPT_CAMPAIGNS) this.campaigns.clear();
    const missing = needed.filter((id) => !this.campaigns.has(id));
    if (missing.length === 0) return;
    for (const campaign of await this.deps.orm.em.fork().find(Campaign, { id: { $in: missing } }))
      this.campaigns.set(campaign.id, campaign);
  }
}
