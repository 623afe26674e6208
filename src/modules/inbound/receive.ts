import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { newId } from '../../db/columns';
import type { DnsResolver } from '../../dns/resolver';
import { upsertContact } from '../contacts/write';
import type { ImageStore } from '../uploads/store';
import { Email as EmailAddress } from '../users/schemas';
import { parseMessage, storable, type ParsedMessage } from './parse';
import type { Address, RepliedEmail, StoredAttachment } from './stored';
import { verifyArrival, type Arrival } from './verify';

/** What receiving needs: the database, the resolvers of DNS_SERVERS and the uploads storage. */
export interface InboundDeps {
  config: Config;
  dns: DnsResolver;
  store: ImageStore;
}

/** The projects taking mail at an address: those with its domain verified and inbound on (usually one). */
export async function projectsTaking(em: EntityManager, address: string): Promise<string[]> {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  if (!address.includes('@') || !domain) return [];
  const rows = await em.execute<{ project_id: string }[]>(
    `select distinct "project_id" from domains where "domain" = ? and "verified" and "inbound"`,
    [domain],
  );
  return rows.map((r) => r.project_id);
}

const EMAIL_ID = /^<([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;

// Postwire's own Message-IDs name the email (compose.ts messageIdOf); relayed mail keeps the client's, found
// through its message. Several emails share a relayed one: the one sent to the reply's sender comes first.
const REPLIED = `
select e."id", e."campaign_id", e."workflow_execution_id" from emails e
where e."project_id" = ? and (e."id" in (select jsonb_array_elements_text(?::jsonb)::uuid)
  or e."relayed_message_id" in (select "id" from relayed_messages where "project_id" = ? and "message_id" in (select jsonb_array_elements_text(?::jsonb))))
order by lower(e."to_address") = ? desc, e."created_at" desc limit 1`;

async function repliedEmail(em: EntityManager, projectId: string, answers: string[], sender: string): Promise<RepliedEmail | null> {
  if (answers.length === 0) return null;
  const ids = answers.flatMap((a) => EMAIL_ID.exec(a)?.[1]?.toLowerCase() ?? []);
  const [row] = await em.execute<{ id: string; campaign_id: string | null; workflow_execution_id: string | null }[]>(REPLIED, [
    projectId,
    JSON.stringify(ids),
    projectId,
    JSON.stringify(answers),
    sender,
  ]);
  return row ? { id: row.id, campaignId: row.campaign_id, executionId: row.workflow_execution_id } : null;
}

/** Attachments go to the uploads storage under the hash of their bytes (the same file is stored once). */
async function storeAttachments(store: ImageStore, message: ParsedMessage): Promise<StoredAttachment[]> {
  return Promise.all(
    message.attachments.map(async (a) => {
      const key = `inbound-${createHash('sha256').update(a.content).digest('hex')}`;
      await store.put(key, a.content, a.contentType);
      return { filename: a.filename, contentType: a.contentType, size: a.content.length, key };
    }),
  );
}

/** The trace lines on top of the kept message: ours, as an MTA adds them (RFC 5321 4.4), then the verifier's. */
function traceLines(config: Config, arrival: Arrival, id: string, authHeaders: string, at: Date): Buffer {
  const helo = arrival.helo.replace(/[^\x21-\x7e]/g, '?').slice(0, 255);
  const received = `Received: from ${helo} ([${arrival.ip}])\r\n by ${config.INBOUND_MX_HOST} (Postwire) with ESMTP id ${id};\r\n ${at.toUTCString()}\r\n`;
  return Buffer.from(received + authHeaders);
}

const senderOf = (message: ParsedMessage, envelopeFrom: string): Address =>
  message.from ?? { email: storable(envelopeFrom.toLowerCase()), name: null };

export interface Received {
  projectId: string;
  id: string;
}

/**
 * Keeps one inbound email per project the message was accepted for: parsed (postal-mime), checked (mailauth),
 * its attachments in the uploads storage; and records `email.received` on the sender's contact (created
 * unsubscribed when missing) in the same transaction, so the activity feed, automations, webhooks and the
 * INBOUND billing count see it. Throws MalformedMessage for a message it cannot parse, before storing anything.
 */
export async function receiveMessage(
  em: EntityManager,
  deps: InboundDeps,
  raw: Buffer,
  arrival: Arrival,
  projectIds: string[],
): Promise<Received[]> {
  const message = await parseMessage(raw);
  const verified = await verifyArrival(raw, arrival, deps.dns, deps.config.INBOUND_MX_HOST);
  const attachments = await storeAttachments(deps.store, message);
  const sender = senderOf(message, arrival.envelopeFrom);
  const contactEmail = EmailAddress.safeParse(sender.email);
  const receivedAt = new Date();
  return em.transactional(async (tx) => {
    const received: Received[] = [];
    for (const projectId of projectIds) {
      const id = newId();
      const inReplyToEmail = await repliedEmail(tx, projectId, message.answers, sender.email);
      const kept = Buffer.concat([traceLines(deps.config, arrival, id, verified.headers, receivedAt), raw]);
      const data = { inboundId: id, to: message.to.map((a) => a.email), subject: message.subject, inReplyToEmail };
      const contact = contactEmail.success
        ? (
            await upsertContact(
              tx,
              projectId,
              { email: contactEmail.data },
              { defaultSubscribed: false, event: { name: 'email.received', data } },
            )
          ).contact
        : null;
      await tx.execute(
        `insert into inbound_emails ("id", "project_id", "contact_id", "from_address", "from_name", "envelope_from", "to", "cc", "subject",
           "text", "html", "headers", "message_id", "in_reply_to", "attachments", "auth", "in_reply_to_email_id", "size_bytes", "raw",
           "received_at", "created_at", "updated_at")
         values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          projectId,
          contact?.id ?? null,
          sender.email,
          sender.name,
          storable(arrival.envelopeFrom) || null,
          JSON.stringify(message.to),
          JSON.stringify(message.cc),
          message.subject,
          message.text,
          message.html,
          JSON.stringify(message.headers),
          message.messageId,
          message.inReplyTo,
          JSON.stringify(attachments),
          JSON.stringify(verified.auth),
          inReplyToEmail?.id ?? null,
          raw.length,
          kept,
          receivedAt,
          receivedAt,
          receivedAt,
        ],
      );
      received.push({ projectId, id });
    }
    return received;
  });
}
