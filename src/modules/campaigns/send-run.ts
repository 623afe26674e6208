import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { keyLookup } from '../../db/prepared';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { enqueueEmails, type EmailDraft } from '../emails/enqueue';
import { pendingCampaignEmails } from '../emails/campaign-queue';
import { TemplateError } from '../templates/render';
import { simulatorRefusal } from '../sandbox/addresses';
import { audienceCondition } from './audience';
import { mailTopic, marketingRefusalSql, type MarketingRefusal } from '../consent/rules';
import { cappedUntilSql, frequencyCapOf, lockForCap } from '../consent/frequency-cap';
import type { SqlCondition } from '../filters/sql';
import { campaignHead } from './drafts';
import { Campaign } from './entities';
import { recordSkips, type RecipientSkip } from './recipients';
import { assignVariants, decideWinner, variantContent } from './ab-test';
import { testShareSize, type AbPart, type AbPlan } from '../../../workflows/campaigns/ids';

/**
 * The database side of a campaign send, step by step, for the campaign workflow's activities. Every step
 * reads the campaign row under a lock and goes on only while the row still carries this send (its send_id)
 * in the expected status, so a step of a cancelled, restarted or deleted send does nothing; and every write
 * is keyed (recipients by campaign and contact, emails by campaign and contact), so a retried step adds
 * nothing twice.
 */

export interface SendRef {
  campaignId: string;
  sendId: string;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';
const C_ID: SqlCondition = { sql: 'c."id"', params: [] };
const NOW: SqlCondition = { sql: 'now()', params: [] };

async function lockedSend(tx: EntityManager, ref: SendRef, mode: LockMode, statuses: Campaign['status'][]): Promise<Campaign | null> {
  const campaign = await tx.findOne(Campaign, { id: ref.campaignId }, { lockMode: mode });
  return campaign && campaign.sendId === ref.sendId && statuses.includes(campaign.status) ? campaign : null;
}

/** SCHEDULED (its time has come) or SENDING becomes SENDING; returns the instant the audience is fixed at. */
export async function beginSend(em: EntityManager, ref: SendRef): Promise<{ asOf: string } | null> {
  return em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_WRITE, ['SCHEDULED', 'SENDING']);
    if (!campaign) return null;
    campaign.status = 'SENDING';
    return { asOf: new Date().toISOString() };
  });
}

export interface SnapshotBatch {
  /** Where the next batch starts; null after the last. */
  last: string | null;
  /** After the last batch: the recipients fixed, now the campaign's totalRecipients. */
  total: number | null;
}

/**
 * The next page of the audience (`audience`: a condition on `contacts c`) after a contact id, in id order, made
 * recipients numbered on from those fixed so far. A contact already fixed can only be one after `after` (the page
 * of an earlier attempt of this batch that committed); the existence check says so, so that PostgreSQL reads
 * the recipients beyond `after` (none, or that page) rather than all those fixed so far: without the bound it
 * hashed every recipient of the campaign, and every contact after `after`, for each batch of 5,000 (0.7 s a batch
 * halfway through 1,000,000 recipients), a cost per recipient that grew with the audience.
 */
export const snapshotPageSql = (audience: string) => `
with fixed as (select coalesce(max(seq) + 1, 0) as next from campaign_recipients where campaign_id = ?),
page as (
  select c.id from contacts c
  where c.project_id = ? and ${audience} and c.created_at <= ? and c.id > ?
    and not exists (select 1 from campaign_recipients r where r.campaign_id = ? and r.contact_id = c.id and r.contact_id > ?)
  order by c.id limit ?),
added as (
  insert into campaign_recipients (campaign_id, seq, contact_id)
  select ?, (select next from fixed) + (row_number() over (order by id))::int - 1, id from page)
select (select id::text from page order by id desc limit 1) as last, (select count(*)::int from page) as size,
  (select next from fixed)::int + (select count(*)::int from page) as total`;

/**
 * Fixes the next `size` recipients after `after` (contact-id order): the audience as of `asOf`, among the
 * contacts that existed then, numbered on from the recipients fixed so far. The row lock serialises the
 * attempts of a batch, and a retry of one that committed skips the recipients it added and fixes the next
 * ones: the walk stays whole and each recipient has one position. The last batch stores the count as
 * totalRecipients.
 */
export async function snapshotBatch(
  em: EntityManager,
  ref: SendRef,
  input: { asOf: string; after: string | null; size: number },
): Promise<SnapshotBatch | null> {
  return em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_WRITE, ['SENDING']);
    if (!campaign) return null;
    const asOf = new Date(input.asOf);
    const condition = await audienceCondition(tx, campaign, asOf);
    const after = input.after ?? FIRST_ID;
    const [page] = await tx.execute<Array<{ last: string | null; size: number; total: number }>>(snapshotPageSql(condition.sql), [
      campaign.id,
      campaign.projectId,
      ...condition.params,
      asOf,
      after,
      campaign.id,
      after,
      input.size,
      campaign.id,
    ]);
    if (page!.size === input.size) return { last: page!.last, total: null };
    campaign.totalRecipients = page!.total;
    return { last: null, total: page!.total };
  });
}

export interface EnqueueBatch {
  /** Recipients looked at. */
  processed: number;
  /** Emails that exist for them now (created by this batch or by an earlier attempt of it). */
  emails: number;
  /** The campaign's emails not yet handed to SMTP. */
  pending: number;
}

/** The recipients an A/B test's part takes: those with a variant, or the rest. */
const PART_SQL = { all: '', test: ' and r.variant is not null', rest: ' and r.variant is null' } as const;

/**
 * A batch's recipients (`batch`: a condition on `campaign_recipients r`) in position order, each with its contact
 * (`c`) and the SQL values of what holds it back. Each contact by its key: as a join, PostgreSQL hashed the whole
 * contacts table for every batch of 500 (8 ms a batch at 100,000 contacts, growing with the audience).
 */
export const recipientRowsSql = (refusal: string, cappedUntil: string, batch: string) => `
select r.contact_id as id, r.email_id, r.variant, c.email, c.subscribed, c.data, ${refusal} as refusal, ${cappedUntil} as capped_until
from campaign_recipients r left join ${keyLookup('contacts', '"id"', 'r."contact_id"')} c on true
where ${batch} order by r.seq`;

interface RecipientRow {
  id: string;
  /** The id the recipient's email takes, fixed with the recipient. */
  email_id: string;
  variant: number | null;
  email: string | null;
  subscribed: boolean | null;
  data: Record<string, unknown> | null;
  /** Why the contact may no longer receive this campaign (docs/consent.md "Who gets marketing"); null when it may. */
  refusal: MarketingRefusal | null;
  /** Under the project's frequency cap, when the contact may next receive marketing; null while it may now. */
  capped_until: Date | null;
}

const NO_VALUE: SqlCondition = { sql: 'null', params: [] };

/**
 * Creates the emails of the recipients at positions `from` to `from + size - 1` through the delivery API, each
 * with its subject rendered (the body is rendered as it is sent: bodies.ts). A recipient deleted since the
 * audience was fixed is skipped, and so is one who unsubscribed, snoozed or left the campaign's topic meanwhile,
 * or whom the project's frequency cap holds back (unless the campaign is TRANSACTIONAL): recipients are fixed,
 * but an unsubscribe is honoured at once. A recipient whose subject does not render (a template runtime limit),
 * or whom no email may go to (an address at the simulator domain outside the sandbox, docs/sandbox.md), is
 * skipped and logged. Each skip's reason is kept on the recipient, for GET /campaigns/{id}/recipients.
 */
export async function enqueueBatch(
  em: EntityManager,
  deps: { config: Config; logger: Logger },
  ref: SendRef,
  input: { from: number; size: number; ab?: AbPart | undefined },
): Promise<EnqueueBatch | null> {
  const batch = await em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_READ, ['SENDING']);
    if (!campaign) return null;
    const topic = campaign.topicId ? await mailTopic(tx, campaign.projectId, campaign.topicId) : null;
    const marketing = campaign.type === 'MARKETING';
    const consent = marketing ? marketingRefusalSql('c', topic) : NO_VALUE;
    const batch = `r.campaign_id = ? and r.seq >= ? and r.seq < ?${PART_SQL[input.ab?.part ?? 'all']}`;
    const batchParams = [campaign.id, input.from, input.from + input.size];
    // The frequency cap counts each recipient's marketing emails with the recipients locked, besides this campaign's own.
    const cap = marketing ? await frequencyCapOf(tx, campaign.projectId) : null;
    if (cap) await lockForCap(tx, { sql: `select r.contact_id from campaign_recipients r where ${batch}`, params: batchParams });
    const capped = cap ? cappedUntilSql(C_ID, cap, NOW, { sql: 'e."campaign_id" = ?', params: [campaign.id] }) : NO_VALUE;
    const rows = await tx.execute<RecipientRow[]>(recipientRowsSql(consent.sql, capped.sql, batch), [
      ...consent.params,
      ...capped.params,
      ...batchParams,
    ]);
    const drafts: EmailDraft[] = [];
    const skips: RecipientSkip[] = [];
    for (const row of rows) {
      // A contact deleted since is no recipient any more: recipients.ts reads it as CONTACT_DELETED.
      if (row.email === null) continue;
      if (row.refusal !== null) {
        skips.push({ contactId: row.id, reason: row.refusal, detail: null });
        continue;
      }
      if (row.capped_until !== null) {
        const detail = `The project's frequency cap (${cap!.maxEmails} marketing emails in ${cap!.windowDays} days) is reached until ${new Date(row.capped_until).toISOString()}`;
        skips.push({ contactId: row.id, reason: 'FREQUENCY_CAPPED', detail });
        continue;
      }
      const refusal = simulatorRefusal(deps.config, row.email);
      if (refusal !== null) {
        deps.logger.warn(
          { campaignId: campaign.id, contactId: row.id, reason: `${row.email} ${refusal}` },
          'campaign recipient refused; skipped',
        );
        skips.push({ contactId: row.id, reason: 'ADDRESS_REFUSED', detail: `${row.email} ${refusal}` });
        continue;
      }
      const contact = { id: row.id, email: row.email, subscribed: row.subscribed ?? false, data: row.data ?? {} };
      try {
        const variant = input.ab === undefined ? null : input.ab.part === 'test' ? row.variant : input.ab.winner;
        drafts.push({ ...(await campaignHead(deps.config, variantContent(campaign, variant), contact)), id: row.email_id });
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        deps.logger.warn(
          { campaignId: campaign.id, contactId: row.id, reason: err.message },
          'campaign subject did not render; recipient skipped',
        );
        skips.push({ contactId: row.id, reason: 'RENDER_FAILED', detail: err.message });
      }
    }
    await recordSkips(tx, campaign.id, skips);
    const emails = await enqueueEmails(tx, drafts);
    return { processed: rows.length, emails: emails.length };
  });
  return batch && { ...batch, pending: await pendingCampaignEmails(em, ref.campaignId) };
}

/** An A/B test's share, drawn once the recipients are fixed; returns its size. Null when the send is over. */
export async function assignTestShare(em: EntityManager, ref: SendRef, plan: AbPlan): Promise<{ size: number } | null> {
  return em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_WRITE, ['SENDING']);
    if (!campaign) return null;
    const size = testShareSize(campaign.totalRecipients, plan);
    await assignVariants(tx, campaign, size, plan.variants);
    return { size };
  });
}

/** The A/B test's winner, decided once (ab-test.ts decideWinner). Null when the send is over. */
export async function decideSendWinner(em: EntityManager, ref: SendRef): Promise<{ winner: number } | null> {
  return em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_WRITE, ['SENDING']);
    return campaign && { winner: await decideWinner(tx, campaign) };
  });
}

/** The campaign's emails still waiting for SMTP; null when this send is no longer under way. */
export async function pendingOfSend(em: EntityManager, ref: SendRef): Promise<{ pending: number; projectId: string } | null> {
  const campaign = await em.findOne(Campaign, { id: ref.campaignId });
  if (!campaign || campaign.sendId !== ref.sendId || campaign.status !== 'SENDING') return null;
  return { pending: await pendingCampaignEmails(em, ref.campaignId), projectId: campaign.projectId };
}

/**
 * SENDING becomes SENT. The recipients stay: they answer who the send reached and who it did not
 * (recipients.ts). False when this send is no longer under way.
 */
export async function finishSend(em: EntityManager, ref: SendRef): Promise<boolean> {
  return em.transactional(async (tx) => {
    const campaign = await lockedSend(tx, ref, LockMode.PESSIMISTIC_WRITE, ['SENDING']);
    if (!campaign) return false;
    campaign.status = 'SENT';
    campaign.sentAt = new Date();
    campaign.sendId = null;
    return true;
  });
}
