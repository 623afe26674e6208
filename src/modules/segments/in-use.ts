import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * How many resources still need the segment, so DELETE answers 409 while any does. The module that holds such
 * resources exports one and the composition root passes it to `segmentRoutes`; this module never imports theirs.
 */
export type SegmentInUse = (em: EntityManager, projectId: string, segmentId: string) => Promise<number>;
