import type { EntityManager } from '@mikro-orm/postgresql';
import { FilterError } from '../../filters/errors';
import { contactMatches } from '../../filters/service';
import type { FilterTree } from '../../filters/schemas';
import { StepFailed } from './errors';
import type { LiveExecution } from '../records';

/** CONDITION: the filter engine over the contact's fields, its event history and the execution context. */
export async function evaluateCondition(em: EntityManager, live: LiveExecution, tree: FilterTree, context: Record<string, unknown>) {
  try {
    const matched = await contactMatches(em, live.execution.projectId, live.contact.id, tree, { context });
    return { branch: matched ? ('yes' as const) : ('no' as const) };
  } catch (err) {
    if (err instanceof FilterError) throw new StepFailed(`The condition no longer resolves: ${err.message}`);
    throw err;
  }
}
