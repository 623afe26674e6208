import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { newId } from '../../db/columns';
import { ApiError } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import { smtpRefusal } from '../../mail/smtp-reply';
import { assertBillingCapNotReached, assertWithinBillingCap } from '../billing/caps';
import { upsertContacts } from '../contacts/write';
import { assertRecentlyVerifiedSender } from '../domains/verified-senders';
import { enqueueEmails, type EmailDraft } from '../emails/enqueue';
import { MalformedMessage, parseMessage } from '../inbound/parse';
import type { Project } from '../projects/entities';
import { suspensionIn } from '../reputation/suspension';
import { withoutBcc } from './message';

export interface RelayDeps {
  config: Config;
  limiter: RateLimiter;
}

/** A refusal of the relay as its SMTP answer (docs/smtp.md "Relay"). */
export const refusals = {
  suspended: (reason: string) => smtpRefusal(554, `5.7.0 The project is suspended: ${reason}`),
  capReached: () => smtpRefusal(554, '5.7.0 The monthly TRANSACTIONAL cap of the project is reached'),
  notOurSender: (what: string, address: string) =>
    smtpRefusal(550, `5.7.1 The ${what} ${address || '<>'} is not on a verified domain of this project`),
  rate: (seconds: number) => smtpRefusal(451, `4.7.1 Sending rate limit reached; try again in ${seconds} s`),
  malformed: (why: string) => smtpRefusal(554, `5.6.0 The message could not be parsed: ${why.slice(0, 200)}`),
};

const isCapRefusal = (err: unknown) => err instanceof ApiError && err.code === 'BILLING_LIMIT_EXCEEDED';

/** A project's sender check as the relay answers it. */
export async function assertRelaySender(em: EntityManager, projectId: string, what: string, address: string): Promise<void> {
  try {
    if (!address) throw new Error('no sender');
    await assertRecentlyVerifiedSender(em, projectId, address);
  } catch {
    throw refusals.notOurSender(what, address);
  }
}

/**
 * What MAIL FROM checks before a message is read (docs/smtp.md "Relay"): the project, as just loaded, may send
 * (554 5.7.0 when suspended or at its cap: one more TRANSACTIONAL email would pass it) and the envelope sender
 * is on one of its verified domains (550 5.7.1).
 */
export async function assertMayRelay(em: EntityManager, config: Config, project: Project, envelopeFrom: string): Promise<void> {
  const suspension = suspensionIn(project);
  if (suspension) throw refusals.suspended(suspension.reason);
  try {
    await assertBillingCapNotReached(em, config, project, 'TRANSACTIONAL');
  } catch (err) {
    if (isCapRefusal(err)) throw refusals.capReached();
    throw err;
  }
  await assertRelaySender(em, project.id, 'envelope sender', envelopeFrom);
}

export interface Relayed {
  /** The first email's id, or the first email of the message already relayed with this Message-ID. */
  queueId: string;
  duplicate: boolean;
}

// A Message-ID guards against a second send for 24 hours: an older holder of the key gives it up first.
const RELEASE_KEY = `update relayed_messages set "dedup_key" = null
  where "project_id" = ? and "dedup_key" = ? and "created_at" < now() - interval '24 hours'`;
const INSERT = `insert into relayed_messages ("id", "project_id", "message_id", "dedup_key", "raw", "created_at")
  values (?, ?, ?, ?, ?, now()) on conflict ("project_id", "dedup_key") where "dedup_key" is not null do nothing returning "id"`;

/**
 * Queues a relayed message (docs/smtp.md "Relay"): one email per envelope recipient, through the pipeline
 * of /v1/send (contact upserted, created unsubscribed; the TRANSACTIONAL billing cap; the rate bucket of
 * sends; the suppression list and the reputation gate where the pump sends it; DKIM), all in one transaction:
 * every email is queued or none. The message is kept once, as given less its Bcc fields. The same Message-ID
 * from the project within 24 hours answers the first message's queue id and sends nothing.
 */
export async function relayMessage(
  em: EntityManager,
  deps: RelayDeps,
  project: Project,
  message: { raw: Buffer; recipients: string[] },
): Promise<Relayed> {
  let parsed: Awaited<ReturnType<typeof parseMessage>>;
  try {
    parsed = await parseMessage(message.raw);
  } catch (err) {
    if (err instanceof MalformedMessage) throw refusals.malformed(err.message);
    throw err;
  }
  const from = parsed.from;
  await assertRelaySender(em, project.id, 'From header', from?.email ?? '');
  const wait = await deps.limiter.refusal(project.id, 'send', message.recipients.length);
  if (wait !== null) throw refusals.rate(wait);
  const raw = withoutBcc(message.raw);
  const messageId = parsed.messageId;
  try {
    return await em.transactional(async (tx) => {
      const id = newId();
      if (messageId) await tx.execute(RELEASE_KEY, [project.id, messageId]);
      const inserted = await tx.execute<{ id: string }[]>(INSERT, [id, project.id, messageId, messageId, raw]);
      if (inserted.length === 0) {
        const [first] = await tx.execute<{ first_email_id: string }[]>(
          `select "first_email_id" from relayed_messages where "project_id" = ? and "dedup_key" = ?`,
          [project.id, messageId],
        );
        return { queueId: first!.first_email_id, duplicate: true };
      }
      const contacts = await upsertContacts(
        tx,
        message.recipients.map((email) => ({ projectId: project.id, input: { email }, options: { defaultSubscribed: false } })),
      );
      const drafts = contacts.map(({ contact }): EmailDraft => ({
        projectId: project.id,
        contactId: contact.id,
        to: { email: contact.email },
        from: { email: from!.email, name: from!.name },
        subject: parsed.subject,
        // The message itself is the relayed one; the row describes it.
        html: '',
        text: null,
        sourceType: 'TRANSACTIONAL',
        marketing: false,
        relayedMessageId: id,
        sizeBytes: raw.length,
      }));
      await assertWithinBillingCap(tx, deps.config, project, 'TRANSACTIONAL', message.recipients);
      const emails = await enqueueEmails(tx, drafts);
      await tx.execute(`update relayed_messages set "first_email_id" = ? where "id" = ?`, [emails[0]!.id, id]);
      return { queueId: emails[0]!.id, duplicate: false };
    });
  } catch (err) {
    if (isCapRefusal(err)) throw refusals.capReached();
    throw err;
  }
}
