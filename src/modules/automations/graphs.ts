import type { EntityManager } from '@mikro-orm/postgresql';
import { AutomationStep, AutomationTransition } from './entities';

export interface Graph {
  steps: AutomationStep[];
  transitions: AutomationTransition[];
}

/** Steps in the order they were added; transitions likewise. */
export async function loadGraph(em: EntityManager, automationId: string): Promise<Graph> {
  const [steps, transitions] = await Promise.all([
    em.find(AutomationStep, { automationId }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    em.find(AutomationTransition, { automationId }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
  ]);
  return { steps, transitions };
}
