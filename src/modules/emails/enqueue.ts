import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { notifyAfterCommit } from '../../db/commit-notifier';
import { executePrepared } from '../../db/prepared';
import { isSimulatorAddress } from '../../mail/simulator-domain';
import { messageSize } from './compose';
import type { Mailbox, OutgoingAttachment, OutgoingEmail } from './outgoing';
import { DELIVERY_CHANNEL } from './delivery/channel';
import { QUEUE_PRIORITY } from './delivery/queue';
import type { CopyRecipient, SourceType } from './entities';
import type { EmailTags } from './tags';

/**
 * The one way emails enter the system, for every producer: /v1/send, campaigns, automations. Producers
 * render the message themselves (renderEmail) and hand over drafts; the delivery pump sends them.
 */

/** An email to enter the system: the message (outgoing.ts) with its producer and recipient. */
export interface EmailDraft extends Omit<OutgoingEmail, 'id' | 'html'> {
  /** Null for a body rendered when the email is sent (draft.ts headFor: a campaign's); its producer gives `sizeBytes`. */
  html: string | null;
  /** The email's id when its producer fixed it beforehand (a campaign recipient's, fixed with the recipient); else a new one. */
  id?: string;
  projectId: string;
  /** The recipient contact; null for mail to an address that is not a contact (e.g. a campaign test send). */
  contactId: string | null;
  sourceType: SourceType;
  /** Sent from a MARKETING template or campaign: subject to unsubscribe links and suppression. */
  marketing: boolean;
  templateId?: string | null;
  tags?: EmailTags;
  /** When given, the email is SCHEDULED until then (a Temporal timer releases it: schedule.ts); else it is PENDING at once. */
  scheduledAt?: Date | null;
  /** The topic a marketing email is about: its List-Unsubscribe leaves that topic only (docs/consent.md). */
  topicId?: string | null;
  /**
   * Idempotency keys of producers, each unique with the contact or step: a second draft with the same key is
   * not inserted, and its result is the first email's id. A campaign that resumes after a crash, or an
   * automation activity that runs again, can therefore enqueue the same drafts without sending twice.
   */
  campaignId?: string | null;
  workflow?: { executionId: string; stepId: string } | null;
  /**
   * A message the SMTP relay accepted (relayed_messages): sent as given, signed but not rebuilt from the
   * fields above, which describe it for the API and the dashboard (docs/smtp.md "Relay").
   */
  relayedMessageId?: string | null;
  /** The message's size when the producer measured it already, or when it is not built from the fields (a relayed one). */
  sizeBytes?: number;
}

/** A draft with its body rendered, as draftFor makes it. */
export type RenderedDraft = EmailDraft & { html: string };

export interface EnqueuedEmail {
  id: string;
  /** False when an email with the draft's campaign or workflow key already existed; `id` is that email's. */
  created: boolean;
}

interface Row {
  id: string;
  project_id: string;
  contact_id: string | null;
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
  tags: EmailTags;
  attachment_count: number;
  size_bytes: number;
  template_id: string | null;
  topic_id: string | null;
  campaign_id: string | null;
  workflow_execution_id: string | null;
  workflow_step_id: string | null;
  source_type: SourceType;
  marketing: boolean;
  simulated: boolean;
  status: 'PENDING' | 'SCHEDULED';
  scheduled_at: string | null;
  relayed_message_id: string | null;
}

const COLUMNS = [
  'id uuid',
  'project_id uuid',
  'contact_id uuid',
  'to_address text',
  'to_name text',
  'cc jsonb',
  'bcc jsonb',
  'from_address text',
  'from_name text',
  'reply_to text',
  'subject text',
  'html text',
  'text text',
  'headers jsonb',
  'tags jsonb',
  'attachment_count integer',
  'size_bytes bigint',
  'template_id uuid',
  'topic_id uuid',
  'campaign_id uuid',
  'workflow_execution_id uuid',
  'workflow_step_id uuid',
  'source_type text',
  'marketing boolean',
  'simulated boolean',
  'status text',
  'scheduled_at timestamptz',
  'relayed_message_id uuid',
];
const NAMES = COLUMNS.map((c) => `"${c.split(' ')[0]}"`).join(', ');

// Without a conflict target, DO NOTHING covers both producer keys; a draft that hit one is not returned. Each
// PENDING email inserted enters the delivery queue (migration 0032) in the same statement; a SCHEDULED one
// enters it when its timer releases it (schedule.ts).
// Prepared (executePrepared): every producer runs it, /v1/send once per request.
const INSERT = `
with inserted as (
  insert into emails (${NAMES}, "release_at", "created_at", "updated_at")
  select ${NAMES}, case when "status" = 'SCHEDULED' then "scheduled_at" end, now(), now() from jsonb_to_recordset(?::jsonb) as r(${COLUMNS.join(', ')})
  on conflict do nothing
  returning "id", "project_id", "source_type", "campaign_id", "workflow_execution_id", "status"),
queued as (
  insert into email_queue ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at")
  select "id", "project_id", "source_type", ${QUEUE_PRIORITY('"source_type"')}, "campaign_id", "workflow_execution_id", now() from inserted
  where "status" = 'PENDING')
select "id", "status" from inserted`;

const EXISTING = `
select e."id", k."i" from jsonb_to_recordset(?::jsonb) as k("i" integer, "campaign_id" uuid, "contact_id" uuid, "execution_id" uuid, "step_id" uuid)
join emails e on (e."campaign_id" = k."campaign_id" and e."contact_id" = k."contact_id")
  or (e."workflow_execution_id" = k."execution_id" and e."workflow_step_id" = k."step_id")`;

function toRow(draft: EmailDraft): Row {
  return {
    id: draft.id ?? newId(),
    project_id: draft.projectId,
    contact_id: draft.contactId,
    to_address: draft.to.email,
    to_name: draft.to.name ?? null,
    cc: (draft.cc ?? []).map(copyOf),
    bcc: (draft.bcc ?? []).map(copyOf),
    from_address: draft.from.email,
    from_name: draft.from.name ?? null,
    reply_to: draft.replyTo ?? null,
    subject: draft.subject,
    html: draft.html,
    text: draft.text ?? null,
    headers: draft.headers ?? {},
    tags: draft.tags ?? {},
    attachment_count: draft.attachments?.length ?? 0,
    size_bytes: draft.sizeBytes ?? messageSize({ ...draft, html: draft.html ?? '' }),
    template_id: draft.templateId ?? null,
    topic_id: draft.topicId ?? null,
    campaign_id: draft.campaignId ?? null,
    workflow_execution_id: draft.workflow?.executionId ?? null,
    workflow_step_id: draft.workflow?.stepId ?? null,
    source_type: draft.sourceType,
    marketing: draft.marketing,
    // Left out of reputation, analytics and billing (docs/security.md "Simulated mail").
    simulated: isSimulatorAddress(draft.to.email),
    status: draft.scheduledAt ? 'SCHEDULED' : 'PENDING',
    scheduled_at: draft.scheduledAt?.toISOString() ?? null,
    relayed_message_id: draft.relayedMessageId ?? null,
  };
}

const copyOf = (m: Mailbox): CopyRecipient => ({ email: m.email, name: m.name ?? null });

async function insertAttachments(tx: EntityManager, emails: Array<{ id: string; attachments: OutgoingAttachment[] }>): Promise<void> {
  const rows = emails.flatMap(({ id, attachments }) =>
    attachments.map((a, position) => [id, position, a.filename, a.contentType, a.contentId ?? null, a.disposition, a.content]),
  );
  if (rows.length === 0) return;
  await tx.execute(
    `insert into email_attachments ("email_id", "position", "filename", "content_type", "content_id", "disposition", "content")
     values ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    rows.flat(),
  );
}

/** The ids of existing emails that the drafts at these indexes collided with, by index. */
async function existingIds(tx: EntityManager, drafts: EmailDraft[], indexes: number[]): Promise<Map<number, string>> {
  const keys = indexes.map((i) => ({
    i,
    campaign_id: drafts[i]!.campaignId ?? null,
    contact_id: drafts[i]!.contactId,
    execution_id: drafts[i]!.workflow?.executionId ?? null,
    step_id: drafts[i]!.workflow?.stepId ?? null,
  }));
  const rows = await tx.execute<Array<{ id: string; i: number }>>(EXISTING, [JSON.stringify(keys)]);
  return new Map(rows.map((r) => [r.i, r.id]));
}

/**
 * Records emails as PENDING (or SCHEDULED) in the caller's transaction (one is opened when there is none), so they commit
 * with whatever produced them; the delivery pumps are woken once it commits.
 * Results are in the order of the drafts.
 */
export async function enqueueEmails(em: EntityManager, drafts: EmailDraft[]): Promise<EnqueuedEmail[]> {
  if (drafts.length === 0) return [];
  const rows = drafts.map(toRow);
  return em.transactional(
    async (tx) => {
      const statuses = await executePrepared<{ id: string; status: string }>(tx, 'emails_enqueue', INSERT, [JSON.stringify(rows)]);
      const inserted = new Set(statuses.map((r) => r.id));
      if (statuses.some((r) => r.status === 'PENDING')) notifyAfterCommit(tx, DELIVERY_CHANNEL);
      await insertAttachments(
        tx,
        rows.flatMap((row, i) => (inserted.has(row.id) ? [{ id: row.id, attachments: drafts[i]!.attachments ?? [] }] : [])),
      );
      const collided = rows.flatMap((row, i) => (inserted.has(row.id) ? [] : [i]));
      const existing = collided.length ? await existingIds(tx, drafts, collided) : new Map<number, string>();
      return rows.map((row, i) => {
        if (inserted.has(row.id)) return { id: row.id, created: true };
        const id = existing.get(i);
        if (!id) throw new Error(`enqueueEmails: draft ${i} was neither inserted nor found by its producer key`);
        return { id, created: false };
      });
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}
