import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../http/errors';
import { normalizeEmail } from '../contacts/email';
import { Contact } from '../contacts/entities';
import { lookupContacts } from '../contacts/service';
import { upsertContact } from '../contacts/write';
import { countMatching, matchingPage } from '../filters/service';
import type { Segment } from './entities';
import type { AddMembersBody, SegmentContactsQuery } from './schemas';
import { storedTree } from './service';

export interface ContactsPage {
  contacts: Contact[];
  total: number;
}

/** A STATIC segment's members, most recently added first; a DYNAMIC segment's matches, live, newest first. */
export async function segmentContacts(em: EntityManager, segment: Segment, q: SegmentContactsQuery): Promise<ContactsPage> {
  const page = { offset: (q.page - 1) * q.pageSize, limit: q.pageSize };
  if (segment.type === 'DYNAMIC') {
    const tree = await storedTree(em, segment);
    const now = new Date();
    return {
      contacts: await matchingPage(em, segment.projectId, tree, page, now),
      total: await countMatching(em, segment.projectId, tree, now),
    };
  }
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select c.* from segment_members m join contacts c on c.id = m.contact_id
     where m.segment_id = ? order by m.created_at desc, c.id desc limit ? offset ?`,
    [segment.id, page.limit, page.offset],
  );
  const [count] = await em.execute<Array<{ total: number }>>('select count(*)::int as total from segment_members where segment_id = ?', [
    segment.id,
  ]);
  return { contacts: rows.map((row) => em.map(Contact, row)), total: count?.total ?? 0 };
}

function requireStatic(segment: Segment, change: string): void {
  if (segment.type !== 'STATIC') {
    throw badRequest(`Members can only be ${change} STATIC segments; a DYNAMIC segment's members follow its condition`);
  }
}

/** Caches the member count of a STATIC segment after its members changed. */
async function syncCount(em: EntityManager, segmentId: string): Promise<void> {
  await em.execute(
    `update segments set member_count = (select count(*) from segment_members where segment_id = ?), member_count_at = now()
     where id = ?`,
    [segmentId, segmentId],
  );
}

/**
 * Adds the contacts with these emails; with `createMissing`, addresses without a contact get one (subscribed
 * as `subscribed` says; existing contacts keep their state). No entry events (docs/segments.md "Choices").
 */
export async function addMembers(em: EntityManager, segment: Segment, body: AddMembersBody) {
  requireStatic(segment, 'added to');
  return em.transactional(async (tx) => {
    let created = 0;
    if (body.createMissing) {
      for (const email of (await lookupContacts(tx, segment.projectId, body.emails)).missing) {
        const { isNew } = await upsertContact(tx, segment.projectId, { email }, { defaultSubscribed: body.subscribed });
        if (isNew) created++;
      }
    }
    const { found, missing } = await lookupContacts(tx, segment.projectId, body.emails);
    const added = await tx.execute<Array<{ contact_id: string }>>(
      `insert into segment_members (segment_id, contact_id, created_at)
       select ?, x::uuid, now() from jsonb_array_elements_text(?::jsonb) x
       on conflict do nothing returning contact_id`,
      [segment.id, JSON.stringify(found.map((c) => c.id))],
    );
    await syncCount(tx, segment.id);
    return { added: added.length, created, notFound: missing };
  });
}

/** Removes the contacts with these emails; no exit events. */
export async function removeMembers(em: EntityManager, segment: Segment, emails: string[]): Promise<{ removed: number }> {
  requireStatic(segment, 'removed from');
  return em.transactional(async (tx) => {
    const removed = await tx.execute<Array<{ contact_id: string }>>(
      `delete from segment_members m using contacts c
       where m.segment_id = ? and m.contact_id = c.id and c.project_id = ?
         and c.email in (select jsonb_array_elements_text(?::jsonb))
       returning m.contact_id`,
      [segment.id, segment.projectId, JSON.stringify([...new Set(emails.map(normalizeEmail))])],
    );
    await syncCount(tx, segment.id);
    return { removed: removed.length };
  });
}
