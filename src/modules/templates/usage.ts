import type { EntityManager } from '@mikro-orm/postgresql';

export interface UsageReference {
  id: string;
  name: string;
}

export interface TemplateUsage {
  campaigns: UsageReference[];
  workflows: UsageReference[];
  forms: UsageReference[];
}

/**
 * How a module that stores template references (campaigns, workflow SEND_EMAIL steps, signup forms) reports them. Each
 * such module exports one and passes it to `templateRoutes` in src/http/routes.ts; this module never imports
 * theirs, so templates do not depend on the features built on them.
 */
export type TemplateUsageSource = (em: EntityManager, projectId: string, templateId: string) => Promise<Partial<TemplateUsage>>;

const byName = (a: UsageReference, b: UsageReference) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

function merge(lists: Array<UsageReference[] | undefined>): UsageReference[] {
  const unique = new Map(lists.flatMap((list) => list ?? []).map((ref) => [ref.id, ref]));
  return [...unique.values()].sort(byName);
}

export async function collectUsage(
  sources: readonly TemplateUsageSource[],
  em: EntityManager,
  projectId: string,
  templateId: string,
): Promise<TemplateUsage> {
  const parts = await Promise.all(sources.map((source) => source(em, projectId, templateId)));
  return {
    campaigns: merge(parts.map((p) => p.campaigns)),
    workflows: merge(parts.map((p) => p.workflows)),
    forms: merge(parts.map((p) => p.forms)),
  };
}
