import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign } from '../campaigns/entities';
import { Segment } from '../segments/entities';
import { workflowReferences } from '../automations/usage';
import { filterFields } from './filter-tree';

/** What may be referenced: a contact field (`data.plan`, `email`) or an event name. */
export type Subject = { kind: 'field'; field: string } | { kind: 'event'; name: string };

export interface Referrer {
  id: string;
  name: string;
}

export const USAGE_AREAS = ['segments', 'campaigns', 'workflows'] as const;
export type UsageArea = (typeof USAGE_AREAS)[number];

/** One kind of resource that can reference fields or events; each resource module contributes its own. */
export interface ReferenceSource {
  area: UsageArea;
  find(em: EntityManager, projectId: string, subject: Subject): Promise<Referrer[]>;
}

/** The filter-tree field that names a subject: `data.plan` itself, or `event.<name>` for an event. */
export const filterFieldOf = (subject: Subject) => (subject.kind === 'field' ? subject.field : `event.${subject.name}`);

const segmentConditions: ReferenceSource = {
  area: 'segments',
  async find(em, projectId, subject) {
    const wanted = filterFieldOf(subject);
    const segments = await em.find(Segment, { projectId }, { orderBy: { createdAt: 'desc' } });
    return segments.filter((s) => filterFields(s.condition).includes(wanted)).map((s) => ({ id: s.id, name: s.name }));
  },
};

const campaignAudiences: ReferenceSource = {
  area: 'campaigns',
  async find(em, projectId, subject) {
    const wanted = filterFieldOf(subject);
    const campaigns = await em.find(Campaign, { projectId, audienceType: 'FILTERED' }, { orderBy: { createdAt: 'desc' } });
    return campaigns.filter((c) => filterFields(c.audienceCondition).includes(wanted)).map((c) => ({ id: c.id, name: c.name }));
  },
};

/**
 * Every source of references. Workflows (triggers, WAIT_FOR_EVENT steps, CONDITION steps) add theirs here
 * as they are built.
 */
const SOURCES: ReferenceSource[] = [segmentConditions, campaignAudiences, workflowReferences];

export const UsageResponse = z.object({
  segments: z.array(z.object({ id: z.uuid(), name: z.string() })),
  campaigns: z.array(z.object({ id: z.uuid(), name: z.string() })),
  workflows: z.array(z.object({ id: z.uuid(), name: z.string() })),
});

export async function usageOf(em: EntityManager, projectId: string, subject: Subject): Promise<z.infer<typeof UsageResponse>> {
  const usage: Record<UsageArea, Referrer[]> = { segments: [], campaigns: [], workflows: [] };
  for (const source of SOURCES) usage[source.area].push(...(await source.find(em, projectId, subject)));
  return usage;
}
