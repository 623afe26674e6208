import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared, keyLookup, KEYED_GENERIC_PLANS } from '../../../db/prepared';
import { boundedEmailRate } from '../../projects/email-rate';
import type { TrackingMode } from '../../projects/entities';
import { suppressionJoin, type SuppressionReason } from '../../suppressions/rules';
import type { CopyRecipient, SourceType } from '../entities';
import { deleteQueued, producersOf, withdrawnSql } from '../withdraw';
import { markSent } from './outcomes';
import { PRIORITIES } from './queue';
import { planSends, type Candidate } from './throttle';

/** A PENDING email this worker now holds under a lease, with what it takes to compose it. */
export interface ClaimedEmail {
  id: string;
  leaseId: string;
  projectId: string;
  campaignId: string | null;
  /** When it became due: its scheduled time, else its creation. Transient failures are retried for 72 hours from then. */
  dueSince: Date;
  /** Attempts so far, this one included. */
  attempts: number;
  toAddress: string;
  toName: string | null;
  /** The copies the suppression list lets through (suppressed ones are left out of the transaction). */
  cc: CopyRecipient[];
  bcc: CopyRecipient[];
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  /** Null when the body is rendered as the email is sent (DeferredBodies). */
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  attachmentCount: number;
  sizeBytes: number;
  contactId: string | null;
  marketing: boolean;
  /** The topic a marketing email is about (docs/consent.md). */
  topicId: string | null;
  /** The suppression list's entry that holds the email back (docs/suppressions.md): not sent, SUPPRESSED. */
  suppressed: SuppressionReason | null;
  trackingMode: TrackingMode;
  /** Sent as the relay accepted it (docs/smtp.md), not built from the fields above. */
  relayedMessageId: string | null;
}

export interface ClaimResult {
  /** Due emails looked at; fewer than asked means nothing else is due now. */
  seen: number;
  claimed: ClaimedEmail[];
  /** Emails found handed over by a worker that died before marking them, now marked SENT. */
  finished: number;
}

// Rows another worker holds are skipped; a row whose lease ran out is due again and can be taken over. The
// lookups are joins, probed per row: as EXISTS subqueries the planner hashed them, reading all of emails'
// primary key on every claim; the email by its key (keyLookup). Prepared (planning it took longer than running
// it), in a transaction that scans no table whole (claimDue): a plan made while the queue's statistics said it
// was empty still walks the due index when the queue holds a campaign (src/db/prepared.ts). Its generic plan
// is forced: left to choose, PostgreSQL planned it afresh on every run, as a generic plan does not know the
// limit.
export const CANDIDATES = `
select q."email_id" as "id", q."project_id", q."campaign_id", q."source_type", q."slot_reserved",
  coalesce(p."email_rate_per_second", ?) as "rate", p."tracking_mode", q."handed_over_at", p."disabled",
  ${withdrawnSql('q', 'c', 'x')} as "withdrawn", e."id" is null as "orphaned"
from email_queue q join projects p on p."id" = q."project_id"
left join ${keyLookup('emails', '"id"', 'q."email_id"', '"id"')} e on true
${producersOf('q', 'c', 'x')}
where q."priority" = ? and q."due_at" <= clock_timestamp()
order by q."due_at" limit ? for update of q skip locked`;

/**
 * The suppression list, asked when the email is leased (every producer's email passes here, so mail queued
 * or scheduled before an address was suppressed stops too): the entry holding back the To address, and the
 * cc and bcc addresses held back. Lateral probes of the list's primary key, per email.
 */
const SUPPRESSION = `${suppressionJoin('suppression', 'emails."project_id"', 'emails."to_address"', 'emails."marketing"')}
cross join lateral (select coalesce(jsonb_agg(r."value"->>'email'), '[]') as "addresses"
  from jsonb_array_elements(emails."cc" || emails."bcc") r
  ${suppressionJoin('held', 'emails."project_id"', `r."value"->>'email'`, 'emails."marketing"')}
  where held."reason" is not null) suppressed_copies`;

const IDS = `(select jsonb_array_elements_text(?::jsonb)::uuid)`;

/**
 * Holds the emails of suspended projects (docs/delivery.md "Holding"): due at 'infinity', so that no claim
 * meets them again until the reinstatement makes them due (src/modules/reputation/suspension.ts). The project
 * row is locked FOR SHARE and read again, as the reinstatement's update conflicts with it: an email is held
 * only while its project is suspended, and a reinstatement that committed first leaves it due.
 */
const HOLD = `
update email_queue q set "due_at" = 'infinity', "lease_id" = null, "slot_reserved" = false
from (select "id" from projects where "id" in (select distinct "project_id" from email_queue where "email_id" in ${IDS})
      and "disabled" order by "id" for share) p
where q."project_id" = p."id" and q."email_id" in ${IDS}`;

// Prepared in the claim's transaction, as the candidates are (planning it cost a quarter of running it): the
// queue's rows by key (`= any`), whatever its statistics say; as a semi-join on the ids, a plan made while they
// said the queue was empty read its whole primary key. Each email by its key (keyLookup).
export const LEASE = `
with leased as (
  update email_queue set "lease_id" = ?, "due_at" = clock_timestamp() + ? * interval '1 millisecond',
    "attempts" = "attempts" + 1, "slot_reserved" = false
  where "email_id" = any(?::uuid[])
  returning "email_id", "attempts")
select emails."id", emails."project_id", emails."campaign_id", coalesce(emails."scheduled_at", emails."created_at") as "due_since", leased."attempts",
  "to_address", "to_name", "cc", "bcc", "from_address", "from_name", "reply_to", "subject", "html", "text", "headers", "attachment_count",
  "size_bytes", "contact_id", "marketing", "relayed_message_id", "topic_id", suppression."reason" as "suppressed", suppressed_copies."addresses" as "suppressed_copies"
from leased cross join ${keyLookup('emails', '"id"', 'leased."email_id"')} emails
${SUPPRESSION}`;

const WITHDRAW = deleteQueued(`select jsonb_array_elements_text(?::jsonb)::uuid as "email_id"`);

/** Queue rows of emails deleted with their contact (the queue has no foreign key: migration 0032). */
const DROP_ORPHANS = `delete from email_queue where "email_id" in ${IDS}`;

const DEFER = `
update email_queue q set "due_at" = clock_timestamp() + d."delay_ms" * interval '1 millisecond', "slot_reserved" = true
from jsonb_to_recordset(?::jsonb) as d("id" uuid, "delay_ms" double precision) where q."email_id" = d."id"`;

interface CandidateRow {
  id: string;
  project_id: string;
  campaign_id: string | null;
  source_type: SourceType;
  slot_reserved: boolean;
  rate: number;
  tracking_mode: TrackingMode;
  handed_over_at: string | null;
  withdrawn: boolean;
  orphaned: boolean;
  disabled: boolean;
}

interface LeasedRow {
  id: string;
  project_id: string;
  campaign_id: string | null;
  due_since: string;
  attempts: number;
  to_address: string;
  to_name: string | null;
  cc: CopyRecipient[];
  bcc: CopyRecipient[];
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  attachment_count: number;
  size_bytes: string;
  contact_id: string | null;
  marketing: boolean;
  relayed_message_id: string | null;
  topic_id: string | null;
  suppressed: SuppressionReason | null;
  suppressed_copies: string[];
}

const toClaimed = (leaseId: string, candidate: CandidateRow, r: LeasedRow): ClaimedEmail => {
  const held = new Set(r.suppressed_copies);
  const allowed = (copies: CopyRecipient[]) => copies.filter((m) => !held.has(m.email));
  return {
    id: r.id,
    leaseId,
    projectId: r.project_id,
    campaignId: r.campaign_id,
    dueSince: new Date(r.due_since),
    attempts: r.attempts,
    toAddress: r.to_address,
    toName: r.to_name,
    cc: allowed(r.cc),
    bcc: allowed(r.bcc),
    fromAddress: r.from_address,
    fromName: r.from_name,
    replyTo: r.reply_to,
    subject: r.subject,
    html: r.html,
    text: r.text,
    headers: r.headers,
    attachmentCount: r.attachment_count,
    sizeBytes: Number(r.size_bytes),
    contactId: r.contact_id,
    marketing: r.marketing,
    topicId: r.topic_id,
    suppressed: r.suppressed,
    trackingMode: candidate.tracking_mode,
    relayedMessageId: r.relayed_message_id,
  };
};

export interface ClaimOptions {
  limit: number;
  leaseMs: number;
  /** EMAIL_RATE_PER_SECOND, for projects without a rate of their own. */
  defaultRate: number;
  /** MAX_EMAIL_RATE_PER_SECOND, which bounds every project's rate (0: none). */
  maxRate: number;
}

/**
 * Claims up to `limit` due emails in one transaction, after marking SENT those a dead worker handed over
 * (hand-over.ts), whose messages the server has, withdrawing those of a cancelled campaign or execution
 * (withdraw.ts), holding those of a suspended project (HOLD), and dropping the queue rows of emails deleted
 * with their contact: FOR UPDATE SKIP LOCKED
 * lets any number of workers claim side by side, and the lease (due_at pushed past the send, under a fresh
 * lease_id) keeps the rows from other workers once the transaction commits. Emails the throttle holds back
 * stay queued until their slot.
 */
export async function claimDue(em: EntityManager, options: ClaimOptions): Promise<ClaimResult> {
  return em.transactional(async (tx) => {
    await tx.execute(KEYED_GENERIC_PLANS);
    const found: CandidateRow[] = [];
    for (const priority of PRIORITIES) {
      if (found.length >= options.limit) break;
      const params = [options.defaultRate, priority, options.limit - found.length];
      found.push(...(await executePrepared<CandidateRow>(tx, 'claim_candidates', CANDIDATES, params)));
    }
    if (found.length === 0) return { seen: 0, claimed: [], finished: 0 };
    const seen = found.length;
    const orphans = found.filter((r) => r.orphaned);
    if (orphans.length) await tx.execute(DROP_ORPHANS, [JSON.stringify(orphans.map((r) => r.id))]);
    const rows = found.filter((r) => !r.orphaned);
    const finished = rows.filter((r) => r.handed_over_at !== null);
    if (finished.length)
      await markSent(
        tx,
        finished.map((r) => ({ id: r.id, campaignId: r.campaign_id, at: r.handed_over_at! })),
      );
    const withdrawn = rows.filter((r) => r.withdrawn);
    if (withdrawn.length) await tx.execute(WITHDRAW, [JSON.stringify(withdrawn.map((r) => r.id))]);
    const unsent = rows.filter((r) => r.handed_over_at === null && !r.withdrawn);
    const held = unsent.filter((r) => r.disabled);
    if (held.length) {
      const ids = JSON.stringify(held.map((r) => r.id));
      await tx.execute(HOLD, [ids, ids]);
    }
    const due = unsent.filter((r) => !r.disabled);
    const candidates: Candidate[] = due.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      lane: r.source_type,
      rate: boundedEmailRate(Number(r.rate), options.maxRate),
      slotReserved: r.slot_reserved,
    }));
    const plan = await planSends(tx, candidates);
    if (plan.deferred.length) await tx.execute(DEFER, [JSON.stringify(plan.deferred)]);
    if (plan.sendNow.length === 0) return { seen, claimed: [], finished: finished.length };
    const leaseId = randomUUID();
    const leased = await executePrepared<LeasedRow>(tx, 'claim_lease', LEASE, [leaseId, options.leaseMs, `{${plan.sendNow.join(',')}}`]);
    // Sent in claim order: priority, then due time.
    const byId = new Map(leased.map((r) => [r.id, r]));
    const claimed = due.flatMap((r) => (byId.has(r.id) ? [toClaimed(leaseId, r, byId.get(r.id)!)] : []));
    return { seen, claimed, finished: finished.length };
  });
}
