import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import type { TemporalGateway } from '../../temporal/client';
import { callTemporal } from '../../temporal/unavailable';
import { ensureScheduledRelease } from '../../temporal/scheduled-emails';
import { bucketOf } from '../../../workflows/scheduled-emails/ids';
import { assertWithinBillingCap, type CapStanding } from '../billing/caps';
import type { DataInput } from '../contacts/custom-fields';
import { upsertContacts, type UpsertResult } from '../contacts/write';
import type { ContactWriteRequest } from '../contacts/write-rows';
import type { Project } from '../projects/entities';
import { TemplateError } from '../templates/render';
import { MAX_MESSAGE_BYTES, messageSize } from '../emails/compose';
import type { Mailbox, OutgoingAttachment } from '../emails/outgoing';
import { draftFor, type DraftContent } from '../emails/draft';
import { enqueueEmails, type EmailDraft, type RenderedDraft } from '../emails/enqueue';
import type { SendBody } from './schemas';

/**
 * The write half of sending: checked sends recorded in the caller's transaction, one send or many at once
 * (a /v1/send/batch, or concurrent /v1/send requests grouped by send-batcher.ts), in the same few statements
 * however many they are.
 */

/** What sending needs besides the request's entity manager. */
export interface SendingDeps {
  config: Config;
  temporal: TemporalGateway;
}

export interface SentEmail {
  contact: { id: string; email: string };
  email: string;
  /** ISO 8601 when the email waits for its time; null when it is sent now. */
  scheduledAt: string | null;
}

/** A /v1/send body checked against the project, before anything is written. */
export interface CheckedSend {
  body: SendBody;
  content: DraftContent;
  recipients: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  attachments: OutgoingAttachment[];
  scheduledAt: Date | null;
}

/** A checked send and the project it is for. */
export interface PendingSend {
  project: Project;
  send: CheckedSend;
}

/** A send recorded: its emails as the response lists them, and where its project's cap stands (null: no cap). */
export interface WrittenSend {
  emails: SentEmail[];
  cap: CapStanding | null;
}

export const templateFailure = (problems: Array<{ field: string; message: string }>) =>
  new ApiError(422, 'VALIDATION_ERROR', `The email does not render: ${problems[0]!.field} ${problems[0]!.message}`, {
    errors: problems.map((p) => ({ field: p.field, message: p.message, code: 'invalid_template' })),
    suggestion: 'Fix the Liquid in the field named; see docs/templates.md for the notation.',
  });

const tooLarge = (size: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The message would be ${(size / 1024 / 1024).toFixed(1)} MB; at most 40 MB is accepted`, {
    details: { size, limit: MAX_MESSAGE_BYTES },
    suggestion: 'Send smaller attachments, or link to large files instead of attaching them.',
  });

/** The request's data for one recipient: its `name` over the request's own. */
const dataFor = (body: SendBody, recipient: Mailbox): DataInput | undefined =>
  recipient.name ? { ...body.data, name: recipient.name } : body.data;

/** Each recipient's contact, created or updated: new contacts unsubscribed unless the request says otherwise. */
const contactWritesOf = ({ project, send }: PendingSend): ContactWriteRequest[] =>
  send.recipients.map((recipient) => ({
    projectId: project.id,
    input: { email: recipient.email, subscribed: send.body.subscribed, data: dataFor(send.body, recipient) },
    options: { defaultSubscribed: false },
  }));

/** Each recipient's email rendered for its written contact: a template that does not render is a 422, a message over 40 MB a 413. */
async function draftsOf(config: Config, { project, send }: PendingSend, contacts: UpsertResult[]): Promise<EmailDraft[]> {
  const drafts: EmailDraft[] = [];
  for (const [i, recipient] of send.recipients.entries()) {
    const { contact } = contacts[i]!;
    let rendered: RenderedDraft;
    try {
      rendered = await draftFor(config, send.content, {
        projectId: project.id,
        contact,
        sourceType: 'TRANSACTIONAL',
        to: { email: contact.email, name: recipient.name ?? null },
        data: dataFor(send.body, recipient),
      });
    } catch (err) {
      if (err instanceof TemplateError) throw templateFailure([{ field: 'body', message: err.message }]);
      throw err;
    }
    const draft: RenderedDraft = {
      ...rendered,
      cc: send.cc,
      bcc: send.bcc,
      headers: send.body.headers ?? {},
      attachments: send.attachments,
      scheduledAt: send.scheduledAt,
    };
    const size = messageSize(draft);
    if (size > MAX_MESSAGE_BYTES) throw tooLarge(size);
    drafts.push({ ...draft, sizeBytes: size });
  }
  return drafts;
}

/**
 * Records the sends in the caller's transaction, or none: every recipient's contact (one statement for all of
 * them, more only for an address written twice), each send's emails rendered, the TRANSACTIONAL cap of each
 * project with a cap allowing all its emails (403 BILLING_LIMIT_EXCEEDED otherwise), the emails recorded in
 * one statement, and the timer of each second that scheduled ones are due in made sure of before the
 * transaction commits (Temporal unreachable is a 503). A send that does not render throws, unless `refused`
 * takes its error: then the others are rendered too, so that every refusal is reported, and nothing is
 * recorded (null). The delivery pump sends the emails once committed; the suppression list is asked there.
 */
export async function writeSends(tx: EntityManager, deps: SendingDeps, pending: PendingSend[]): Promise<WrittenSend[]>;
export async function writeSends(
  tx: EntityManager,
  deps: SendingDeps,
  pending: PendingSend[],
  refused: (index: number, err: unknown) => void,
): Promise<WrittenSend[] | null>;
export async function writeSends(
  tx: EntityManager,
  deps: SendingDeps,
  pending: PendingSend[],
  refused?: (index: number, err: unknown) => void,
): Promise<WrittenSend[] | null> {
  const writes = pending.map(contactWritesOf);
  const contacts = await upsertContacts(tx, writes.flat());
  const drafts: EmailDraft[][] = [];
  let at = 0;
  let anyRefused = false;
  for (const [i, item] of pending.entries()) {
    const mine = contacts.slice(at, (at += writes[i]!.length));
    try {
      drafts.push(await draftsOf(deps.config, item, mine));
    } catch (err) {
      if (!refused) throw err;
      refused(i, err);
      anyRefused = true;
    }
  }
  if (anyRefused) return null;
  const caps = await capsOf(tx, deps.config, pending, drafts);
  const sent = await recordDrafts(tx, deps, drafts.flat());
  at = 0;
  return pending.map(({ project }, i) => ({ emails: sent.slice(at, (at += drafts[i]!.length)), cap: caps.get(project.id) ?? null }));
}

/** Each project's TRANSACTIONAL cap with all of its drafts counted, in the order of project ids (the order of their locks). */
async function capsOf(
  tx: EntityManager,
  config: Config,
  pending: PendingSend[],
  drafts: EmailDraft[][],
): Promise<Map<string, CapStanding | null>> {
  const byProject = new Map<string, { project: Project; recipients: string[] }>();
  pending.forEach(({ project }, i) => {
    const entry = byProject.get(project.id) ?? { project, recipients: [] };
    entry.recipients.push(...drafts[i]!.map((d) => d.to.email));
    byProject.set(project.id, entry);
  });
  const caps = new Map<string, CapStanding | null>();
  for (const id of [...byProject.keys()].sort()) {
    const { project, recipients } = byProject.get(id)!;
    caps.set(id, await assertWithinBillingCap(tx, config, project, 'TRANSACTIONAL', recipients));
  }
  return caps;
}

/** The drafts recorded, and the timer of each second that scheduled ones are due in made sure of; in order of the drafts. */
async function recordDrafts(tx: EntityManager, deps: SendingDeps, drafts: EmailDraft[]): Promise<SentEmail[]> {
  const enqueued = await enqueueEmails(tx, drafts);
  // One timer per project and second the emails are due in, however many emails share it.
  const timers = new Map(
    drafts.flatMap((d) => (d.scheduledAt ? [[`${d.projectId} ${bucketOf(d.scheduledAt).getTime()}`, d] as const] : [])),
  );
  if (timers.size) {
    await callTemporal('no email was recorded', () =>
      Promise.all([...timers.values()].map((d) => ensureScheduledRelease(deps.temporal, d.projectId, d.scheduledAt!))),
    );
  }
  return drafts.map((draft, i) => ({
    contact: { id: draft.contactId!, email: draft.to.email },
    email: enqueued[i]!.id,
    scheduledAt: draft.scheduledAt?.toISOString() ?? null,
  }));
}
