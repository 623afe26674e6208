import type { EntityManager } from '@mikro-orm/postgresql';

export interface TopicReference {
  id: string;
  name: string;
}

export interface TopicUsage {
  campaigns: TopicReference[];
  forms: TopicReference[];
  workflows: TopicReference[];
}

/**
 * How a module that names topics (campaigns, signup forms, SEND_EMAIL steps) reports what would break if one
 * were deleted. Each exports one; the composition root passes them to `topicRoutes`, so this module never
 * imports the features built on it.
 */
export type TopicUsageSource = (em: EntityManager, projectId: string, topicId: string) => Promise<Partial<TopicUsage>>;

export async function topicUsage(
  sources: readonly TopicUsageSource[],
  em: EntityManager,
  projectId: string,
  topicId: string,
): Promise<TopicUsage> {
  const parts = await Promise.all(sources.map((source) => source(em, projectId, topicId)));
  const all = (key: keyof TopicUsage) => parts.flatMap((p) => p[key] ?? []).sort((a, b) => a.name.localeCompare(b.name));
  return { campaigns: all('campaigns'), forms: all('forms'), workflows: all('workflows') };
}
