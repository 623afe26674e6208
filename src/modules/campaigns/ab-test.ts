import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, validationError } from '../../http/errors';
import { variantName, type AbPlan } from '../../../workflows/campaigns/ids';
import type { VariantsResponse } from './schemas';
import type { CampaignContent } from './drafts';
import { rate, type CampaignCounts } from './counts';
import type { AbTest, Campaign } from './entities';

/**
 * A/B tests (docs/campaigns.md "A/B tests"): 2 to 4 variants of the campaign's subject, body or sender go
 * to equal random parts of a test share of the recipients; after a waiting time the variant with the most
 * opens or clicks (or the one a person chose) goes to the rest. The workflow drives the phases; this is
 * their database side, each step keyed so that a retry does the same thing again.
 */

/** The plan the workflow runs: the variants' content stays here. */
export const abPlan = (ab: AbTest): AbPlan => ({
  variants: ab.variants.length,
  testPercent: ab.testPercent,
  waitMinutes: ab.waitMinutes,
  winnerBy: ab.winnerBy,
});

/** The campaign's content as variant `index` changes it (no test, or no variant: the campaign's own). */
export function variantContent<C extends CampaignContent>(campaign: C & { abTest?: AbTest | null }, index: number | null): C {
  const variant = index === null ? undefined : campaign.abTest?.variants[index];
  if (!variant) return campaign;
  return {
    ...campaign,
    subject: variant.subject ?? campaign.subject,
    body: variant.body ?? campaign.body,
    from: variant.from ?? campaign.from,
    fromName: variant.fromName !== undefined ? variant.fromName : campaign.fromName,
  };
}

/**
 * Draws the test share: the first `size` recipients in an order drawn from the send's id (md5 of send and
 * contact, so a retry draws the same), dealt round the variants, so the parts are equal and random.
 */
export async function assignVariants(tx: EntityManager, campaign: Campaign, size: number, variants: number): Promise<void> {
  await tx.execute(
    `with drawn as (
       select "contact_id", (row_number() over (order by md5(?::text || "contact_id"::text)) - 1)::int as rank
       from campaign_recipients where "campaign_id" = ?)
     update campaign_recipients r set "variant" = case when d.rank < ? then d.rank % ? end
     from drawn d where r."campaign_id" = ? and r."contact_id" = d."contact_id"`,
    [campaign.sendId, campaign.id, size, variants, campaign.id],
  );
}

/** A variant's figures: the campaign's, over the recipients of the test share given it. */
export type VariantCounts = Omit<CampaignCounts, 'totalRecipients'> & { variant: number; recipients: number };

/** Each variant's figures, derived on read as the campaign's are (docs/campaigns.md "Figures"). */
export async function variantCounts(em: EntityManager, campaign: Pick<Campaign, 'id' | 'abTest'>): Promise<VariantCounts[]> {
  const count = campaign.abTest?.variants.length ?? 0;
  if (count === 0) return [];
  const rows = await em.execute<Array<Record<string, number>>>(
    `select r."variant"::int as variant, count(*)::int as recipients, count(e."sent_at")::int as sent,
       count(e."delivered_at")::int as delivered, count(e."opened_at")::int as opened, count(e."clicked_at")::int as clicked,
       count(e."bounced_at")::int as bounced, count(e."complained_at")::int as complained
     from campaign_recipients r
     left join emails e on e."id" = r."email_id"
     where r."campaign_id" = ? and r."variant" is not null group by r."variant"`,
    [campaign.id],
  );
  return Array.from({ length: count }, (_, variant) => {
    const row = rows.find((r) => r.variant === variant);
    return {
      variant,
      recipients: row?.recipients ?? 0,
      sentCount: row?.sent ?? 0,
      deliveredCount: row?.delivered ?? 0,
      openedCount: row?.opened ?? 0,
      clickedCount: row?.clicked ?? 0,
      bouncedCount: row?.bounced ?? 0,
      complainedCount: row?.complained ?? 0,
    };
  });
}

/** The most opens (or clicks) in percent of what each variant sent; a tie goes to the earlier variant. */
export function leader(counts: VariantCounts[], by: 'OPENS' | 'CLICKS'): number {
  const score = (c: VariantCounts) => (c.sentCount === 0 ? 0 : (by === 'OPENS' ? c.openedCount : c.clickedCount) / c.sentCount);
  return counts.reduce((best, c) => (score(c) > score(counts[best]!) ? c.variant : best), 0);
}

/**
 * The winner, decided once: a choice already made (by hand, or by an earlier attempt) stands; otherwise the
 * leader by the test's measure now (variant 0 for a test chosen by hand that ends without a choice).
 */
export async function decideWinner(tx: EntityManager, campaign: Campaign): Promise<number> {
  if (campaign.abWinner !== null && campaign.abWinner !== undefined) return campaign.abWinner;
  const by = campaign.abTest!.winnerBy;
  const winner = by === 'MANUAL' ? 0 : leader(await variantCounts(tx, campaign), by);
  campaign.abWinner = winner;
  campaign.abDecidedBy = by;
  campaign.abDecidedAt = new Date();
  return winner;
}

/**
 * POST /campaigns/{id}/winner: a person picks the variant for the rest, while the test runs and before a
 * winner was decided (409 otherwise); the campaign row is locked by the caller.
 */
export function chooseWinner(campaign: Campaign, variant: number): void {
  if (!campaign.abTest) throw conflict('The campaign has no A/B test', { status: campaign.status });
  if (campaign.status !== 'SENDING') {
    throw conflict(`A winner is chosen while the campaign is SENDING; it is ${campaign.status}`, { status: campaign.status });
  }
  if (campaign.abWinner !== null && campaign.abWinner !== undefined) {
    throw conflict('The winner was already decided', { status: campaign.status, winner: campaign.abWinner });
  }
  if (variant >= campaign.abTest.variants.length) {
    throw validationError(
      [{ field: 'variant', message: `The test has ${campaign.abTest.variants.length} variants, numbered from 0`, code: 'too_big' }],
      `variant: the test has ${campaign.abTest.variants.length} variants`,
    );
  }
  campaign.abWinner = variant;
  campaign.abDecidedBy = 'MANUAL';
  campaign.abDecidedAt = new Date();
}

/** GET /campaigns/{id}/variants: the test, its decision, and each variant's content and figures. */
export async function variantsView(em: EntityManager, campaign: Campaign): Promise<VariantsResponse> {
  const ab = campaign.abTest ?? null;
  const counts = await variantCounts(em, campaign);
  return {
    winnerBy: ab?.winnerBy ?? null,
    testPercent: ab?.testPercent ?? null,
    waitMinutes: ab?.waitMinutes ?? null,
    winner: campaign.abWinner ?? null,
    decidedBy: campaign.abDecidedBy ?? null,
    decidedAt: campaign.abDecidedAt?.toISOString() ?? null,
    variants: counts.map((c) => {
      const content = variantContent(campaign, c.variant);
      return {
        ...c,
        name: variantName(c.variant),
        subject: content.subject,
        from: content.from,
        fromName: content.fromName ?? null,
        openRate: rate(c.openedCount, c.sentCount),
        clickRate: rate(c.clickedCount, c.sentCount),
      };
    }),
  };
}
