import type { Segment } from './entities';
import type { SegmentResponse } from './schemas';

export const serializeSegment = (s: Segment): SegmentResponse => ({
  id: s.id,
  name: s.name,
  description: s.description ?? null,
  type: s.type,
  condition: s.condition ?? null,
  trackMembership: s.trackMembership,
  memberCount: s.memberCount,
  projectId: s.projectId,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
