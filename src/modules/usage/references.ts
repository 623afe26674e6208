import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';

/** What may be referenced: a contact field (`data.plan`, `email`) or an event name. */
export type Subject = { kind: 'field'; field: string } | { kind: 'event'; name: string };

export interface Referrer {
  id: string;
  name: string;
}

export const USAGE_AREAS = ['segments', 'campaigns', 'workflows'] as const;
export type UsageArea = (typeof USAGE_AREAS)[number];

/**
 * One kind of resource that can reference fields or events. Each resource module exports its own and the
 * composition root (src/app/references.ts) lists them; this module never imports theirs.
 */
export interface ReferenceSource {
  area: UsageArea;
  find(em: EntityManager, projectId: string, subject: Subject): Promise<Referrer[]>;
}

/** The filter-tree field that names a subject: `data.plan` itself, or `event.<name>` for an event. */
export const filterFieldOf = (subject: Subject) => (subject.kind === 'field' ? subject.field : `event.${subject.name}`);

export const UsageResponse = z.object({
  segments: z.array(z.object({ id: z.uuid(), name: z.string() })),
  campaigns: z.array(z.object({ id: z.uuid(), name: z.string() })),
  workflows: z.array(z.object({ id: z.uuid(), name: z.string() })),
});

export async function usageOf(
  em: EntityManager,
  sources: readonly ReferenceSource[],
  projectId: string,
  subject: Subject,
): Promise<z.infer<typeof UsageResponse>> {
  const usage: Record<UsageArea, Referrer[]> = { segments: [], campaigns: [], workflows: [] };
  for (const source of sources) usage[source.area].push(...(await source.find(em, projectId, subject)));
  return usage;
}
