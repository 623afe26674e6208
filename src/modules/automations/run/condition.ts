import type { EntityManager } from '@mikro-orm/postgresql';
import { FilterError } from '../../filters/errors';
import { evaluateFilter, type FilterInputs } from '../../filters/evaluate';
import { loadFilterInputs } from '../../filters/inputs';
import { contactMatches, resolveForProject } from '../../filters/service';
import type { FilterTree } from '../../filters/schemas';
import { StepFailed } from './errors';
import type { LiveExecution, MirrorState } from '../records';
import type { SimulationRun } from '../simulate/run';

const branchOf = (matched: boolean) => ({ branch: matched ? ('yes' as const) : ('no' as const) });

/** A filter that no longer resolves against the project fails the step; it would not resolve on a retry. */
async function evaluating<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FilterError) throw new StepFailed(`The condition no longer resolves: ${err.message}`);
    throw err;
  }
}

/** CONDITION: the filter engine over the contact's fields, its event history and the execution context. */
export const evaluateCondition = (em: EntityManager, live: LiveExecution, tree: FilterTree, context: Record<string, unknown>) =>
  evaluating(async () => branchOf(await contactMatches(em, live.execution.projectId, live.contact.id, tree, { context })));

/**
 * A simulated CONDITION (docs/simulation.md): the same engine over the simulated contact, the events that have
 * arrived by the step's time (those given and those earlier steps recorded) (beside a stored contact's own events and static segments) and the context, at
 * the simulation's time. Stored data is only read.
 */
export const evaluateSimulatedCondition = (
  em: EntityManager,
  run: SimulationRun,
  state: MirrorState,
  tree: FilterTree,
  context: Record<string, unknown>,
) =>
  evaluating(async () => {
    const resolved = await resolveForProject(em, run.projectId, tree, { context: true });
    const elapsed = run.stepElapsed(state);
    const stored = run.contact.stored ? await loadFilterInputs(em, run.projectId, run.contact.id, resolved) : null;
    const arrived = [...run.events, ...run.recorded]
      .filter((e) => e.afterMs <= elapsed)
      .map((e) => ({ name: e.name, createdAt: new Date(run.realOrigin + e.afterMs) }));
    const inputs: FilterInputs = {
      contact: run.contact,
      events: [...(stored?.events ?? []), ...arrived],
      staticSegments: stored?.staticSegments ?? new Set(),
      context,
    };
    return branchOf(evaluateFilter(resolved, inputs, new Date(run.realOrigin + elapsed)));
  });
