import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One period during which a project was disabled; rows are written by a database trigger on projects.disabled. */
export const ProjectSuspension = defineEntity({
  name: 'ProjectSuspension',
  tableName: 'project_suspensions',
  properties: {
    id: p.uuid().primary(),
    projectId: p.uuid(),
    reason: p.text().nullable(),
    /** Who suspended: the guardrails, or an operator (the default: also a flag flipped in SQL). */
    by: p.enum(['automatic', 'operator'] as const),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
  },
});
export type ProjectSuspension = InferEntity<typeof ProjectSuspension>;
