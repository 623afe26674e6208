import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { PlainError, badRequest, conflict, notFound } from '../../http/errors';
import { callTemporal } from '../../temporal/unavailable';
import { computeSegmentNow, startSegmentTracking, stopSegmentTracking, type StillComputing } from '../../temporal/segments';
import type { SegmentComputeResult } from '../../../workflows/segments/ids';
import { asFilterField } from '../filters/errors';
import { parseFilterTree, type ResolvedTree } from '../filters/resolve';
import type { FilterTree } from '../filters/schemas';
import { countMatching, resolveForProject } from '../filters/service';
import { Segment } from './entities';
import type { SegmentInUse } from './in-use';
import type { CreateSegmentBody, UpdateSegmentBody } from './schemas';

export async function findSegment(em: EntityManager, projectId: string, id: string): Promise<Segment> {
  const segment = await em.findOne(Segment, { id, projectId });
  if (!segment) throw notFound('Segment', 'SEGMENT_NOT_FOUND');
  return segment;
}

export const listSegments = (em: EntityManager, projectId: string) =>
  em.find(Segment, { projectId }, { orderBy: { createdAt: 'desc', id: 'desc' } });

const isTracked = (s: Segment) => s.type === 'DYNAMIC' && s.trackMembership;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The condition a DYNAMIC segment is saved with, checked strictly against what the project knows. */
async function checkedCondition(em: EntityManager, projectId: string, segmentId: string | undefined, condition: unknown) {
  if (!isObject(condition)) throw new PlainError('condition is required and must be an object for DYNAMIC segments');
  return asFilterField('condition', async () => {
    const tree: FilterTree = parseFilterTree(condition);
    const resolved = await resolveForProject(em, projectId, tree, { strict: true, segmentId });
    return { tree, resolved };
  });
}

/** How many contacts a condition matches now, without saving it: the count a segment being edited would have. */
export async function countCondition(em: EntityManager, projectId: string, condition: unknown, segmentId?: string): Promise<number> {
  const { resolved } = await checkedCondition(em, projectId, segmentId, condition);
  return countMatching(em, projectId, resolved);
}

/**
 * A STATIC segment ignores its condition (docs/segments.md "Choices"), but a condition that is not a filter tree at all is still
 * bad input, answered as on a DYNAMIC segment rather than accepted against /openapi.json.
 */
async function assertTreeShape(condition: unknown): Promise<void> {
  if (condition !== undefined && condition !== null) await asFilterField('condition', async () => parseFilterTree(condition));
}

/** A stored condition, resolved leniently: fields deleted since match as absent, deleted segments as empty. */
export const storedTree = (em: EntityManager, segment: Segment): Promise<ResolvedTree> =>
  asFilterField('condition', () => resolveForProject(em, segment.projectId, segment.condition, { segmentId: segment.id }));

/** Starts the tracking loop of a segment saved as tracked; Temporal being unreachable is a 503. */
async function startTracking(deps: Deps, segment: Segment, what: string): Promise<void> {
  await callTemporal(what, () => startSegmentTracking(deps.temporal, segment, deps.config.SEGMENT_TRACKING_INTERVAL_MINUTES));
}

/** The loop also ends by itself at its next computation, which finds nothing to track. */
async function stopTracking(deps: Deps, segmentId: string, reason: string): Promise<void> {
  try {
    await stopSegmentTracking(deps.temporal, segmentId, reason);
  } catch (err) {
    deps.logger.warn({ err, segmentId }, 'could not stop segment tracking; it ends at its next computation');
  }
}

export async function createSegment(deps: Deps, em: EntityManager, projectId: string, body: CreateSegmentBody): Promise<Segment> {
  const id = newId();
  if (body.type !== 'DYNAMIC') await assertTreeShape(body.condition);
  const checked = body.type === 'DYNAMIC' ? await checkedCondition(em, projectId, id, body.condition) : null;
  const segment = em.create(Segment, {
    id,
    projectId,
    name: body.name,
    description: body.description ?? null,
    type: body.type,
    condition: checked?.tree ?? null,
    trackMembership: body.trackMembership,
    memberCount: checked ? await countMatching(em, projectId, checked.resolved) : 0,
    memberCountAt: new Date(),
  });
  await em.flush();
  // Committed first, so the loop's first computation finds it; removed again when the loop cannot start.
  if (isTracked(segment)) {
    await startTracking(deps, segment, 'the segment was not created').catch(async (err: unknown) => {
      await em.remove(segment).flush();
      throw err;
    });
  }
  return segment;
}

/**
 * Applies the PATCH in one transaction holding the row. Turning tracking on starts the loop inside it: the
 * loop's computations read the row FOR SHARE, so they wait for this commit, and a failed start rolls the
 * whole PATCH back.
 */
export async function updateSegment(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
  body: UpdateSegmentBody,
): Promise<Segment> {
  let stopped = false;
  const segment = await em.transactional(async (tx) => {
    const segment = await tx.findOne(Segment, { id, projectId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!segment) throw notFound('Segment', 'SEGMENT_NOT_FOUND');
    const wasTracked = isTracked(segment);
    if (body.name !== undefined) segment.name = body.name;
    if (body.description !== undefined) segment.description = body.description;
    // Only a DYNAMIC segment has a condition; a STATIC segment ignores it, as on create.
    if (segment.type !== 'DYNAMIC') await assertTreeShape(body.condition);
    if (body.condition !== undefined && segment.type === 'DYNAMIC') {
      const checked = await checkedCondition(tx, projectId, id, body.condition);
      segment.condition = checked.tree;
      segment.memberCount = await countMatching(tx, projectId, checked.resolved);
      segment.memberCountAt = new Date();
    }
    if (body.trackMembership !== undefined) segment.trackMembership = body.trackMembership;
    await tx.flush();
    if (!wasTracked && isTracked(segment)) await startTracking(deps, segment, 'nothing was changed');
    stopped = wasTracked && !isTracked(segment);
    return segment;
  });
  if (stopped) await stopTracking(deps, id, 'trackMembership turned off');
  return segment;
}

export async function deleteSegment(deps: Deps, em: EntityManager, projectId: string, id: string, inUse: SegmentInUse): Promise<void> {
  const segment = await findSegment(em, projectId, id);
  const campaigns = await inUse(em, projectId, id);
  if (campaigns > 0) {
    throw conflict(`The segment is the audience of ${campaigns} active campaign(s); change their audience first`, { campaigns });
  }
  const tracked = isTracked(segment);
  await em.remove(segment).flush();
  if (tracked) await stopTracking(deps, id, 'segment deleted');
}

async function staticCount(em: EntityManager, segmentId: string): Promise<number> {
  const [row] = await em.execute<Array<{ count: number }>>('select count(*)::int as count from segment_members where segment_id = ?', [
    segmentId,
  ]);
  return row?.count ?? 0;
}

/** Recounts and caches memberCount: STATIC from its members, DYNAMIC live from its condition. */
export async function refreshCount(em: EntityManager, segment: Segment): Promise<number> {
  const count =
    segment.type === 'STATIC'
      ? await staticCount(em, segment.id)
      : await countMatching(em, segment.projectId, await storedTree(em, segment));
  await em.nativeUpdate(Segment, { id: segment.id }, { memberCount: count, memberCountAt: new Date() });
  segment.memberCount = count;
  return count;
}

/**
 * POST /segments/{id}/compute. A tracked DYNAMIC segment is recomputed by its Temporal workflow, waited for
 * SEGMENT_COMPUTE_WAIT_SECONDS at most; a STATIC one has no condition to compute, so it is recounted.
 */
export async function computeSegment(
  deps: Deps,
  em: EntityManager,
  projectId: string,
  id: string,
): Promise<SegmentComputeResult | StillComputing> {
  const segment = await findSegment(em, projectId, id);
  if (segment.type === 'STATIC') return { entered: 0, exited: 0, memberCount: await refreshCount(em, segment) };
  if (!segment.trackMembership) {
    throw badRequest(
      'Membership tracking is off for this segment: turn trackMembership on, or use POST /segments/{id}/refresh for a count',
    );
  }
  const waitMs = deps.config.SEGMENT_COMPUTE_WAIT_SECONDS * 1000;
  const result = await callTemporal('nothing was computed', () => computeSegmentNow(deps.temporal, segment, waitMs));
  if (!result) throw conflict('The segment was deleted or stopped tracking while it was computed');
  return result;
}
