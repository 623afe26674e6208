import { TransactionPropagation } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern, countRows, keysetPage, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { notFound } from '../../http/errors';
import { recordEvents } from '../outbox/record';
import type { SuppressionReason } from './rules';

/** An entry of the list as the API shows it (docs/suppressions.md). */
export interface SuppressionEntry {
  email: string;
  reason: SuppressionReason;
  emailId: string | null;
  createdAt: string;
}

interface Row {
  email: string;
  reason: SuppressionReason;
  email_id: string | null;
  created_at: string;
}

const entryOf = (r: Row): SuppressionEntry => ({
  email: r.email,
  reason: r.reason,
  emailId: r.email_id,
  createdAt: new Date(r.created_at).toISOString(),
});

const notListed = () => notFound('Suppression');

/**
 * Records `suppression.added` or `suppression.removed` with `{email, reason, emailId}` on the contacts that
 * have these addresses (a contact is one per address; an address may be no contact at all).
 */
async function recordOnContacts(tx: EntityManager, projectId: string, name: string, entries: SuppressionEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const byEmail = new Map(entries.map((e) => [e.email, e]));
  const contacts = await tx.execute<Array<{ id: string; email: string }>>(
    `select "id", "email" from contacts where "project_id" = ? and "email" in (select jsonb_array_elements_text(?::jsonb))`,
    [projectId, JSON.stringify([...byEmail.keys()])],
  );
  recordEvents(
    tx,
    contacts.map((c) => {
      const { email, reason, emailId } = byEmail.get(c.email)!;
      return { projectId, contactId: c.id, name, data: { email, reason, emailId } };
    }),
  );
}

/**
 * Puts addresses on the project's list (lowercased; those already on it keep their entry) and records
 * `suppression.added` for each one added, in the caller's transaction when there is one. Used by POST
 * /suppressions and by the bounce and complaint reports alike.
 */
export async function addSuppressions(
  em: EntityManager,
  projectId: string,
  emails: string[],
  reason: SuppressionReason,
  emailId: string | null = null,
): Promise<{ added: number; already: number }> {
  const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
  return em.transactional(
    async (tx) => {
      const inserted = await tx.execute<Row[]>(
        `insert into suppressions ("project_id", "email", "reason", "email_id", "created_at")
       select ?, e, ?, ?, now() from jsonb_array_elements_text(?::jsonb) as e
       on conflict do nothing
       returning "email", "reason", "email_id", "created_at"`,
        [projectId, reason, emailId, JSON.stringify(unique)],
      );
      await recordOnContacts(tx, projectId, 'suppression.added', inserted.map(entryOf));
      await tx.flush();
      return { added: inserted.length, already: unique.length - inserted.length };
    },
    { propagation: TransactionPropagation.REQUIRED },
  );
}

/** Takes an address off the list, recording `suppression.removed`; the contact's subscription is left as it is. */
export async function removeSuppression(em: EntityManager, projectId: string, email: string): Promise<void> {
  await em.transactional(async (tx) => {
    const [removed] = await tx.execute<Row[]>(
      `delete from suppressions where "project_id" = ? and "email" = ? returning "email", "reason", "email_id", "created_at"`,
      [projectId, email.toLowerCase()],
    );
    if (!removed) throw notListed();
    await recordOnContacts(tx, projectId, 'suppression.removed', [entryOf(removed)]);
    await tx.flush();
  });
}

export async function getSuppression(em: EntityManager, projectId: string, email: string): Promise<SuppressionEntry> {
  const [row] = await em.execute<Row[]>(
    `select "email", "reason", "email_id", "created_at" from suppressions where "project_id" = ? and "email" = ?`,
    [projectId, email.toLowerCase()],
  );
  if (!row) throw notListed();
  return entryOf(row);
}

export interface SuppressionQuery {
  limit: number;
  cursor?: string;
  reason?: SuppressionReason;
  search?: string;
}

const ORDERING = 'createdAt:desc';
const KEY = timestampKey('s."created_at"');

/** GET /suppressions: newest first, as a cursor page; `total` on the first page only. */
export async function listSuppressions(em: EntityManager, projectId: string, q: SuppressionQuery) {
  const after = q.cursor ? decodeCursor(q.cursor, ORDERING) : undefined;
  const where = ['s."project_id" = ?'];
  const params: unknown[] = [projectId];
  if (q.reason) {
    where.push('s."reason" = ?');
    params.push(q.reason);
  }
  const search = q.search?.trim();
  if (search) {
    where.push('s."email" ilike ?');
    params.push(containsPattern(search));
  }
  const [page, total] = await Promise.all([
    keysetPage<Row>(em, {
      select: 's."email", s."reason", s."email_id", s."created_at"',
      from: 'suppressions s',
      where,
      params,
      key: KEY,
      idColumn: 's."id"',
      dir: 'desc',
      limit: q.limit,
      after,
    }),
    after ? 0 : countRows(em, 'suppressions s', where, params),
  ]);
  return {
    data: page.rows.map(entryOf),
    cursor: page.next ? encodeCursor(ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}
