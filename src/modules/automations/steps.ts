import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { badRequest, notFound } from '../../http/errors';
import { Automation, AutomationStep, AutomationTransition } from './entities';
import { invalidGraph } from './errors';
import { configProblem, graphProblems, transitionProblem } from '../../../workflows/automation/graph';
import type { AddStepBody, AddTransitionBody, UpdateStepBody } from './schemas';
import { loadGraph, type Graph } from './graphs';
import { findAutomation } from './service';
import { checkedStepConfig } from './step-types';
import { publishVersion } from './publish';

/**
 * Edits of a workflow's graph. Each runs in one transaction holding the workflow row, so concurrent edits
 * apply one after the other and every check sees the graph it changes. An enabled workflow always has a
 * runnable graph: an edit that would break that is refused, and restructuring means disabling it first
 * (running executions are unaffected: they run the definition they started with). An edit of an enabled workflow
 * publishes its graph as the next version, which executions starting from then on run.
 */
async function editGraph<T>(
  em: EntityManager,
  projectId: string,
  automationId: string,
  edit: (tx: EntityManager, automation: Automation, graph: Graph) => Promise<T>,
): Promise<T> {
  return em.transactional(async (tx) => {
    const automation = await findAutomation(tx, projectId, automationId, true);
    const result = await edit(tx, automation, await loadGraph(tx, automationId));
    await tx.flush();
    await tx.nativeUpdate(Automation, { id: automationId }, { graphVersion: automation.graphVersion + 1 });
    if (automation.enabled) {
      const after = await loadGraph(tx, automationId);
      const problems = graphProblems(after.steps, after.transitions);
      if (problems.length) {
        throw invalidGraph('The workflow is enabled and this change would leave it unable to run; disable it to restructure it', problems);
      }
      await publishVersion(tx, automation);
    }
    return result;
  });
}

function stepOf(graph: Graph, stepId: string): AutomationStep {
  const step = graph.steps.find((s) => s.id === stepId);
  if (!step) throw notFound('Step');
  return step;
}

export const addStep = (em: EntityManager, projectId: string, automationId: string, body: AddStepBody) =>
  editGraph(em, projectId, automationId, async (tx) => {
    const config = await checkedStepConfig(tx, projectId, body.type, body.config);
    return tx.create(AutomationStep, { id: newId(), automationId, type: body.type, name: body.name ?? null, config });
  });

export const updateStep = (em: EntityManager, projectId: string, automationId: string, stepId: string, body: UpdateStepBody) =>
  editGraph(em, projectId, automationId, async (tx, _automation, graph) => {
    const step = stepOf(graph, stepId);
    if (body.name !== undefined) step.name = body.name;
    if (body.config !== undefined) {
      const config = await checkedStepConfig(tx, projectId, step.type, body.config);
      const problem = configProblem({ id: step.id, type: step.type, config }, graph.transitions);
      if (problem) throw invalidGraph('The config does not fit the transitions of the step', [problem]);
      step.config = config;
    }
    return step;
  });

/**
 * Deletes a step with its transitions. With `splice`, the transitions that entered it are redirected to
 * where its single outgoing transition led, keeping their branch or outcome, so the path closes over the gap.
 */
export const deleteStep = (em: EntityManager, projectId: string, automationId: string, stepId: string, splice: boolean) =>
  editGraph(em, projectId, automationId, async (tx, _automation, graph) => {
    const step = stepOf(graph, stepId);
    const outgoing = graph.transitions.filter((t) => t.fromStepId === stepId);
    if (splice && outgoing.length > 1) {
      throw badRequest(
        `A ${step.type} step with ${outgoing.length} outgoing transitions cannot be spliced out: it is unclear which path to keep`,
        {
          errors: [{ field: 'splice', message: 'splice needs a step with at most one outgoing transition', code: 'invalid_graph' }],
          suggestion: 'Delete the transitions you do not want to keep first, or delete without splice.',
        },
      );
    }
    const [next] = outgoing;
    if (splice && next) await tx.nativeUpdate(AutomationTransition, { toStepId: stepId }, { toStepId: next.toStepId });
    // Remaining transitions of the step go with it (foreign keys cascade).
    await tx.nativeDelete(AutomationStep, { id: stepId });
    tx.clear();
  });

export const addTransition = (em: EntityManager, projectId: string, automationId: string, body: AddTransitionBody) =>
  editGraph(em, projectId, automationId, async (tx, _automation, graph) => {
    const from = graph.steps.find((s) => s.id === body.fromStepId);
    const edge = {
      fromStepId: body.fromStepId,
      toStepId: body.toStepId,
      branch: body.branch ?? null,
      // EVENT is what a WAIT_FOR_EVENT step's plain transition means.
      outcome: body.outcome ?? (from?.type === 'WAIT_FOR_EVENT' ? ('EVENT' as const) : null),
    };
    const problem = transitionProblem(graph.steps, graph.transitions, edge);
    if (problem) throw invalidGraph('The transition cannot be added', [problem]);
    return tx.create(AutomationTransition, { id: newId(), automationId, ...edge });
  });

export const deleteTransition = (em: EntityManager, projectId: string, automationId: string, transitionId: string) =>
  editGraph(em, projectId, automationId, async (tx, _automation, graph) => {
    const transition = graph.transitions.find((t) => t.id === transitionId);
    if (!transition) throw notFound('Transition');
    tx.remove(transition);
  });
