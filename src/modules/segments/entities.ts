import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';
import type { FilterTree } from '../filters/schemas';

export const SEGMENT_TYPES = ['DYNAMIC', 'STATIC'] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

export const Segment = defineEntity({
  name: 'Segment',
  tableName: 'segments',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    name: p.string(),
    description: p.string().nullable(),
    type: p.enum([...SEGMENT_TYPES]),
    /** The filter tree (docs/filters.md); null for STATIC segments. */
    condition: p.json<FilterTree>().nullable(),
    trackMembership: p.boolean().default(false),
    memberCount: p.integer().default(0),
    memberCountAt: p.datetime().nullable(),
  },
});
export type Segment = InferEntity<typeof Segment>;

export const SegmentMember = defineEntity({
  name: 'SegmentMember',
  tableName: 'segment_members',
  properties: {
    segmentId: p.uuid().primary(),
    contactId: p.uuid().primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type SegmentMember = InferEntity<typeof SegmentMember>;
