import { CONDITION_BRANCHES, SPLIT_BRANCHES, type Branch, type Outcome, type StepType } from './definition';

/**
 * The graph rules of docs/automations.md "Editing", pure so that the API (which refuses a bad edit with a 400) and the
 * interpreter's tests share them: `branch` only from CONDITION (`yes`, `no`) and RANDOM_SPLIT (`A` to its last
 * branch), `outcome` only from WAIT_FOR_EVENT (TIMEOUT
 * only with a timeout), at most one outgoing transition otherwise, no cycles, one entry step.
 */

export interface GraphStep {
  id: string;
  type: StepType;
  config: unknown;
}

export interface GraphEdge {
  fromStepId: string;
  toStepId: string;
  branch?: Branch | null;
  outcome?: Outcome | null;
}

export interface GraphProblem {
  /** The request field the problem is about. */
  field: string;
  message: string;
}

const hasTimeout = (step: GraphStep) =>
  step.type === 'WAIT_FOR_EVENT' && typeof (step.config as { timeout?: unknown }).timeout === 'number';

/** The branches a step's transitions may leave it by: none for steps that do not branch. */
export function branchesOf(step: GraphStep): readonly Branch[] {
  if (step.type === 'CONDITION') return CONDITION_BRANCHES;
  if (step.type !== 'RANDOM_SPLIT') return [];
  const { branches } = step.config as { branches?: unknown[] };
  return SPLIT_BRANCHES.slice(0, Array.isArray(branches) ? branches.length : 0);
}

const listed = (branches: readonly Branch[]) => branches.map((b) => `"${b}"`).join(', ');

/** The label of a transition's exit from its step, for messages. */
function exitLabel(edge: GraphEdge): string {
  if (edge.branch) return `branch "${edge.branch}"`;
  if (edge.outcome) return `outcome ${edge.outcome}`;
  return 'outgoing transition';
}

/** Steps reachable from `start` by following transitions. */
function reachable(edges: readonly GraphEdge[], start: string): Set<string> {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift()!;
    for (const e of edges) {
      if (e.fromStepId === at && !seen.has(e.toStepId)) {
        seen.add(e.toStepId);
        queue.push(e.toStepId);
      }
    }
  }
  return seen;
}

/** Why a transition may not leave `from` the way it says, whatever else the graph holds. */
function shapeProblem(from: GraphStep, edge: GraphEdge): GraphProblem | null {
  if (from.type === 'EXIT') return { field: 'fromStepId', message: 'An EXIT step ends the execution; no transition can leave it' };
  const branches = branchesOf(from);
  if (edge.branch != null && branches.length === 0) {
    return { field: 'branch', message: `branch is only for transitions leaving a CONDITION or RANDOM_SPLIT step, not ${from.type}` };
  }
  if (edge.outcome != null && from.type !== 'WAIT_FOR_EVENT') {
    return { field: 'outcome', message: `outcome is only for transitions leaving a WAIT_FOR_EVENT step, not ${from.type}` };
  }
  if (branches.length > 0 && (edge.branch == null || !branches.includes(edge.branch))) {
    return { field: 'branch', message: `A transition leaving a ${from.type} step needs one of its branches: ${listed(branches)}` };
  }
  if (from.type === 'WAIT_FOR_EVENT' && edge.outcome === 'TIMEOUT' && !hasTimeout(from)) {
    return { field: 'outcome', message: 'outcome TIMEOUT needs a timeout on the WAIT_FOR_EVENT step' };
  }
  return null;
}

/** Why `edge` cannot be added to a graph of `steps` and `edges`; null when it can. */
export function transitionProblem(steps: readonly GraphStep[], edges: readonly GraphEdge[], edge: GraphEdge): GraphProblem | null {
  const from = steps.find((s) => s.id === edge.fromStepId);
  if (!from) return { field: 'fromStepId', message: 'fromStepId is not a step of this workflow' };
  if (!steps.some((s) => s.id === edge.toStepId)) return { field: 'toStepId', message: 'toStepId is not a step of this workflow' };
  const shape = shapeProblem(from, edge);
  if (shape) return shape;
  const exit = (e: GraphEdge) => `${e.branch ?? ''}/${e.outcome ?? ''}`;
  const taken = edges.find((e) => e.fromStepId === edge.fromStepId && exit(e) === exit(edge));
  if (taken) return { field: 'fromStepId', message: `The step already has its ${exitLabel(edge)}; delete that transition first` };
  if (edge.fromStepId === edge.toStepId || reachable(edges, edge.toStepId).has(edge.fromStepId)) {
    return { field: 'toStepId', message: 'The transition would close a cycle; workflows must be acyclic' };
  }
  return null;
}

/**
 * Why `step` may not take `config` given the transitions leaving it (a TIMEOUT transition needs a timeout, a
 * split's transitions need their branches).
 */
export function configProblem(step: GraphStep, edges: readonly GraphEdge[]): GraphProblem | null {
  if (step.type === 'RANDOM_SPLIT') {
    const kept = branchesOf(step);
    const lost = edges.find((e) => e.fromStepId === step.id && e.branch != null && !kept.includes(e.branch));
    if (lost) {
      return { field: 'config.branches', message: `The step has a transition on branch "${lost.branch}"; delete that transition first` };
    }
  }
  const timeoutEdge = edges.some((e) => e.fromStepId === step.id && e.outcome === 'TIMEOUT');
  if (timeoutEdge && !hasTimeout(step)) {
    return { field: 'config.timeout', message: 'The step has a TIMEOUT transition, so it needs a timeout; delete that transition first' };
  }
  return null;
}

/** The steps no transition enters. A runnable graph has exactly one: its entry step. */
export function rootsOf(steps: readonly GraphStep[], edges: readonly GraphEdge[]): GraphStep[] {
  const entered = new Set(edges.map((e) => e.toStepId));
  return steps.filter((s) => !entered.has(s.id));
}

/** Everything that keeps the graph from being a single-rooted acyclic graph. */
export function graphProblems(steps: readonly GraphStep[], edges: readonly GraphEdge[]): GraphProblem[] {
  if (steps.length === 0) return [{ field: 'steps', message: 'The workflow has no steps' }];
  const problems: GraphProblem[] = [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  edges.forEach((edge, i) => {
    const from = byId.get(edge.fromStepId);
    const shape = from && byId.has(edge.toStepId) ? shapeProblem(from, edge) : { field: 'toStepId', message: 'unknown step' };
    if (shape) problems.push({ field: `transitions.${i}.${shape.field}`, message: shape.message });
  });
  const roots = rootsOf(steps, edges);
  if (roots.length !== 1) {
    problems.push({
      field: 'transitions',
      message:
        roots.length === 0
          ? 'The workflow has no entry step (every step has an incoming transition)'
          : `The workflow must have exactly one entry step (a step with no incoming transition); it has ${roots.length}: ${roots.map((r) => r.id).join(', ')}`,
    });
  }
  if (edges.some((e) => reachable(edges, e.toStepId).has(e.fromStepId))) {
    problems.push({ field: 'transitions', message: 'The transitions form a cycle; workflows must be acyclic' });
  }
  return problems;
}
