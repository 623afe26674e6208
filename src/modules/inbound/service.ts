import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern, countRows, keysetPage, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { notFound } from '../../http/errors';
import type { InboundEmail } from './schemas';
import type { Address, AuthResults, StoredAttachment } from './stored';

const ORDERING = 'receivedAt:desc';
const KEY = timestampKey('i."received_at"');

interface SummaryRow {
  id: string;
  contact_id: string | null;
  from_address: string;
  from_name: string | null;
  to: Address[];
  cc: Address[];
  subject: string;
  message_id: string | null;
  in_reply_to: string | null;
  attachments: StoredAttachment[];
  auth: AuthResults;
  in_reply_to_email_id: string | null;
  replied_campaign_id: string | null;
  replied_execution_id: string | null;
  size_bytes: number;
  received_at: Date;
}

interface FullRow extends SummaryRow {
  text: string | null;
  html: string | null;
  headers: Array<{ name: string; value: string }>;
}

const SUMMARY = `i."id", i."contact_id", i."from_address", i."from_name", i."to", i."cc", i."subject", i."message_id", i."in_reply_to",
  i."attachments", i."auth", i."in_reply_to_email_id", e."campaign_id" as "replied_campaign_id",
  e."workflow_execution_id" as "replied_execution_id", i."size_bytes", i."received_at"`;
const FROM = `inbound_emails i left join emails e on e."id" = i."in_reply_to_email_id"`;

const summaryOf = (publicUrl: string, r: SummaryRow) => ({
  id: r.id,
  from: { email: r.from_address, name: r.from_name },
  to: r.to,
  cc: r.cc,
  subject: r.subject,
  messageId: r.message_id,
  inReplyTo: r.in_reply_to,
  attachments: r.attachments.map((a, i) => ({
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    url: new URL(`/inbound/${r.id}/attachments/${i}`, publicUrl).toString(),
  })),
  auth: r.auth,
  inReplyToEmail: r.in_reply_to_email_id
    ? { id: r.in_reply_to_email_id, campaignId: r.replied_campaign_id, executionId: r.replied_execution_id }
    : null,
  contactId: r.contact_id,
  size: Number(r.size_bytes),
  receivedAt: new Date(r.received_at).toISOString(),
});

export interface InboundQuery {
  limit: number;
  cursor?: string;
  search?: string;
  contactId?: string;
  campaignId?: string;
}

/** The project's inbound emails, newest first, without their text, html and headers. */
export async function listInbound(em: EntityManager, publicUrl: string, projectId: string, q: InboundQuery) {
  const after = q.cursor ? decodeCursor(q.cursor, ORDERING) : undefined;
  const where = ['i."project_id" = ?'];
  const params: unknown[] = [projectId];
  if (q.contactId) {
    where.push('i."contact_id" = ?');
    params.push(q.contactId);
  }
  if (q.campaignId) {
    where.push('e."campaign_id" = ?');
    params.push(q.campaignId);
  }
  const search = q.search?.trim();
  if (search) {
    where.push('(i."from_address" ilike ? or i."subject" ilike ?)');
    params.push(containsPattern(search), containsPattern(search));
  }
  const [page, total] = await Promise.all([
    keysetPage<SummaryRow>(em, {
      select: SUMMARY,
      from: FROM,
      where,
      params,
      key: KEY,
      idColumn: 'i."id"',
      dir: 'desc',
      limit: q.limit,
      after,
    }),
    after ? 0 : countRows(em, FROM, where, params),
  ]);
  return {
    data: page.rows.map((r) => summaryOf(publicUrl, r)),
    cursor: page.next ? encodeCursor(ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}

const missing = () => notFound('Inbound email');

/** One inbound email of the project; another project's is as absent as a missing one. */
export async function getInbound(em: EntityManager, publicUrl: string, projectId: string, id: string): Promise<InboundEmail> {
  const [row] = await em.execute<FullRow[]>(
    `select ${SUMMARY}, i."text", i."html", i."headers" from ${FROM} where i."id" = ? and i."project_id" = ?`,
    [id, projectId],
  );
  if (!row) throw missing();
  return { ...summaryOf(publicUrl, row), text: row.text, html: row.html, headers: row.headers };
}

/** The message as received, with our trace lines on top. */
export async function rawInbound(em: EntityManager, projectId: string, id: string): Promise<Buffer> {
  const [row] = await em.execute<{ raw: Buffer }[]>(`select "raw" from inbound_emails where "id" = ? and "project_id" = ?`, [
    id,
    projectId,
  ]);
  if (!row) throw missing();
  return row.raw;
}

/** Where an attachment's bytes are; 404 for a position the email does not have. */
export async function inboundAttachment(em: EntityManager, projectId: string, id: string, index: number): Promise<StoredAttachment> {
  const [row] = await em.execute<{ attachments: StoredAttachment[] }[]>(
    `select "attachments" from inbound_emails where "id" = ? and "project_id" = ?`,
    [id, projectId],
  );
  const attachment = row?.attachments[index];
  if (!attachment) throw notFound('Attachment');
  return attachment;
}
