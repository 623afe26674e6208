import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvents } from '../outbox/record';
import { resolveForProject } from '../filters/service';
import { compileFilter } from '../filters/sql';
import { Segment } from './entities';
import { membershipEventName } from './slug';

/**
 * Membership of tracked DYNAMIC segments in segment_members, and the entry and exit events that changes to
 * it emit. Run by the segment-compute workflow's activities; one chunk is one transaction.
 */

export interface ChunkResult {
  entered: number;
  exited: number;
  /** Contacts of the chunk that match. */
  members: number;
  /** Where the next chunk starts; null after the last one. */
  last: string | null;
}

/**
 * The segment when it is a tracked DYNAMIC one, the only kind whose membership is computed. Read FOR SHARE:
 * a PATCH that turns tracking on starts the loop before it commits, and this waits for that commit.
 */
export async function trackedSegment(em: EntityManager, segmentId: string): Promise<Segment | null> {
  const segment = await em.transactional((tx) => tx.findOne(Segment, { id: segmentId }, { lockMode: LockMode.PESSIMISTIC_READ }));
  return segment?.type === 'DYNAMIC' && segment.trackMembership ? segment : null;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Compares the next `size` contacts after `after` (by id) with the condition as of `asOf`, and moves the
 * ones whose membership changed, with their events. Safe to repeat: a repeat finds nothing left to move.
 */
export async function computeChunk(
  em: EntityManager,
  segment: Segment,
  input: { asOf: Date; after: string | null; size: number },
): Promise<ChunkResult> {
  const tree = await resolveForProject(em, segment.projectId, segment.condition, { segmentId: segment.id });
  const condition = compileFilter(tree, input.asOf);
  const rows = await em.execute<Array<{ id: string; matches: boolean; member: boolean }>>(
    `select c.id, (${condition.sql}) as matches,
       exists (select 1 from segment_members m where m.segment_id = ? and m.contact_id = c.id) as member
     from contacts c where c.project_id = ? and c.id > ? order by c.id limit ?`,
    [...condition.params, segment.id, segment.projectId, input.after ?? FIRST_ID, input.size],
  );
  const entered = rows.filter((r) => r.matches && !r.member).map((r) => r.id);
  const exited = rows.filter((r) => r.member && !r.matches).map((r) => r.id);
  if (entered.length || exited.length) {
    await em.transactional(async (tx) => {
      await tx.execute(
        `insert into segment_members (segment_id, contact_id, created_at)
         select ?, x::uuid, now() from jsonb_array_elements_text(?::jsonb) x on conflict do nothing`,
        [segment.id, JSON.stringify(entered)],
      );
      await tx.execute(
        `delete from segment_members where segment_id = ? and contact_id in (select x::uuid from jsonb_array_elements_text(?::jsonb) x)`,
        [segment.id, JSON.stringify(exited)],
      );
      const data = { segmentId: segment.id, segmentName: segment.name };
      const event = (contactId: string, change: 'entry' | 'exit') => ({
        projectId: segment.projectId,
        contactId,
        name: membershipEventName(segment.name, segment.id, change),
        data,
      });
      recordEvents(tx, [...entered.map((id) => event(id, 'entry')), ...exited.map((id) => event(id, 'exit'))]);
    });
  }
  return {
    entered: entered.length,
    exited: exited.length,
    members: rows.filter((r) => r.matches).length,
    last: rows.length === input.size ? rows[rows.length - 1]!.id : null,
  };
}

/** Caches the computed count; a computation is not an edit, so updatedAt stays. */
export async function finishCompute(em: EntityManager, segmentId: string, memberCount: number, asOf: Date): Promise<void> {
  await em.nativeUpdate(Segment, { id: segmentId }, { memberCount, memberCountAt: asOf });
}
