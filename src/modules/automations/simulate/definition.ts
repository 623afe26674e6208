import type { EntityManager } from '@mikro-orm/postgresql';
import type { Definition, Goal, StepSnapshot, TransitionSnapshot } from '../../../../workflows/automation/definition';
import { checkedGoal } from '../goal';
import { graphProblems, transitionProblem, type GraphProblem } from '../../../../workflows/automation/graph';
import { ApiError, badRequest } from '../../../http/errors';
import { invalidGraph } from '../errors';
import { checkedStepConfig } from '../step-types';
import type { SimulationDefinition } from './schemas';

/** An error of a step's config, its fields named from the request's top (`definition.steps.2.config.url`). */
function underStep(err: unknown, index: number): unknown {
  if (!(err instanceof ApiError)) return err;
  const errors = err.extra.errors?.map((e) => ({ ...e, field: `definition.steps.${index}.${e.field}` }));
  return new ApiError(err.status, err.code, err.message, { ...err.extra, ...(errors ? { errors } : {}) });
}

const under = (problems: GraphProblem[]) => problems.map((p) => ({ ...p, field: `definition.${p.field}` }));

/**
 * An unsaved graph as an execution would run it, checked as the steps endpoints check one: each config
 * for its type and the project (422 or 400), each transition by the graph rules, then one entry step and
 * no cycle (400). Its goal is the draft's (`null`: none), else the workflow's own.
 */
export async function draftDefinition(
  em: EntityManager,
  projectId: string,
  name: string,
  draft: SimulationDefinition,
  workflowGoal: Goal | null | undefined,
): Promise<Definition> {
  const steps: StepSnapshot[] = [];
  for (const [i, step] of draft.steps.entries()) {
    if (steps.some((s) => s.id === step.id)) {
      throw badRequest(`Two steps have the id ${step.id}`, {
        errors: [{ field: `definition.steps.${i}.id`, message: 'Step ids must be unique', code: 'invalid_graph' }],
      });
    }
    const config = await checkedStepConfig(em, projectId, step.type, step.config).catch((err: unknown) => {
      throw underStep(err, i);
    });
    steps.push({ id: step.id, name: step.name ?? null, type: step.type, config } as StepSnapshot);
  }
  const transitions: TransitionSnapshot[] = [];
  for (const [i, t] of draft.transitions.entries()) {
    const from = steps.find((s) => s.id === t.fromStepId);
    // EVENT is what a WAIT_FOR_EVENT step's plain transition means, as for saved transitions.
    const edge = { ...t, branch: t.branch ?? null, outcome: t.outcome ?? (from?.type === 'WAIT_FOR_EVENT' ? ('EVENT' as const) : null) };
    const problem = transitionProblem(steps, transitions, edge);
    if (problem)
      throw invalidGraph('The definition cannot run', [
        { field: `definition.transitions.${i}.${problem.field}`, message: problem.message },
      ]);
    transitions.push(edge);
  }
  const problems = graphProblems(steps, transitions);
  if (problems.length) throw invalidGraph('The definition cannot run', under(problems));
  const goal = draft.goal === undefined ? workflowGoal : draft.goal && (await checkedGoal(draft.goal, 'definition.goal'));
  return { name, steps, transitions, ...(goal && { goal }) };
}
