import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern, countRows, keysetPage, textKey, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { notFound } from '../../http/errors';
import { normalizeEmail } from './email';
import { Contact } from './entities';
import type { ListContactsQuery } from './schemas';

export async function getContact(em: EntityManager, projectId: string, id: string): Promise<Contact> {
  const contact = await em.findOne(Contact, { id, projectId });
  if (!contact) throw notFound('Contact');
  return contact;
}

/** Its events and segment memberships go with it (foreign keys cascade). */
export async function deleteContact(em: EntityManager, projectId: string, id: string): Promise<void> {
  const deleted = await em.nativeDelete(Contact, { id, projectId });
  if (deleted === 0) throw notFound('Contact');
}

export interface LookupResult {
  found: Array<{ id: string; email: string; subscribed: boolean }>;
  missing: string[];
}

/** Which of these addresses are contacts of the project; `missing` keeps the caller's spelling. */
export async function lookupContacts(em: EntityManager, projectId: string, emails: string[]): Promise<LookupResult> {
  const wanted = [...new Set(emails)];
  const rows = await em.find(
    Contact,
    { projectId, email: { $in: [...new Set(wanted.map(normalizeEmail))] } },
    { fields: ['id', 'email', 'subscribed'], orderBy: { email: 'asc' } },
  );
  const known = new Set(rows.map((r) => r.email));
  return {
    found: rows.map((r) => ({ id: r.id, email: r.email, subscribed: r.subscribed })),
    missing: wanted.filter((e) => !known.has(normalizeEmail(e))),
  };
}

/** The project's contacts, from the counters kept by the contacts triggers (migration 0005): no scan. */
async function countedContacts(em: EntityManager, projectId: string, subscribed: boolean | undefined): Promise<number> {
  const [row] = await em.execute<{ n: string | null }[]>(
    `select sum("n") as n from contact_counts where "project_id" = ?${subscribed === undefined ? '' : ' and "subscribed" = ?'}`,
    subscribed === undefined ? [projectId] : [projectId, subscribed],
  );
  return Number(row?.n ?? 0);
}

const SORT_KEYS = { createdAt: timestampKey('c."created_at"'), email: textKey('c."email"') };

export interface ContactPage {
  contacts: Contact[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

export async function listContacts(em: EntityManager, projectId: string, q: ListContactsQuery): Promise<ContactPage> {
  const ordering = `${q.sort}:${q.dir}`;
  const after = q.cursor ? decodeCursor(q.cursor, ordering) : undefined;
  const where = ['c."project_id" = ?'];
  const params: unknown[] = [projectId];
  const search = q.search?.trim();
  if (search) {
    where.push('c."email" ilike ?');
    params.push(containsPattern(search));
  }
  if (q.subscribed !== undefined) {
    where.push('c."subscribed" = ?');
    params.push(q.subscribed);
  }
  const [page, total] = await Promise.all([
    keysetPage<Record<string, unknown>>(em, {
      select: 'c.*',
      from: 'contacts c',
      where,
      params,
      key: SORT_KEYS[q.sort],
      idColumn: 'c."id"',
      dir: q.dir,
      limit: q.limit,
      after,
    }),
    after ? 0 : search ? countRows(em, 'contacts c', where, params) : countedContacts(em, projectId, q.subscribed),
  ]);
  return {
    contacts: page.rows.map((row) => em.map(Contact, row)),
    cursor: page.next ? encodeCursor(ordering, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}
