import type { EntityManager } from '@mikro-orm/postgresql';
import type { Definition, StepSnapshot } from '../../../workflows/automation/definition';
import { Automation, AutomationVersion } from './entities';
import { invalidGraph } from './errors';
import { graphProblems } from '../../../workflows/automation/graph';
import { loadGraph, type Graph } from './graphs';

export type GraphSnapshot = Pick<Definition, 'steps' | 'transitions'>;

/** Graph snapshots by `<automationId>:<graphVersion>`; a version never changes, so entries never go stale. */
const snapshots = new Map<string, GraphSnapshot>();
const MAX_SNAPSHOTS = 1_000;

export const snapshotOf = (graph: Graph): GraphSnapshot => ({
  steps: graph.steps.map((s) => ({ id: s.id, name: s.name ?? null, type: s.type, config: s.config }) as StepSnapshot),
  transitions: graph.transitions.map((t) => ({
    fromStepId: t.fromStepId,
    toStepId: t.toStepId,
    branch: t.branch ?? null,
    outcome: t.outcome ?? null,
  })),
});

/**
 * The definition an execution starting now runs: the automation's latest version (docs/automations.md "Versions"),
 * read once per process (a version never changes). An automation never published (none is enabled so) runs its
 * current graph.
 */
export async function publishedDefinitionOf(em: EntityManager, automation: Automation): Promise<Definition> {
  if (automation.version === 0) return definitionOf(em, automation);
  const key = `${automation.id}:v${automation.version}`;
  let graph = snapshots.get(key);
  if (!graph) {
    const row = await em.findOne(AutomationVersion, { automationId: automation.id, number: automation.version });
    if (!row) return definitionOf(em, automation);
    graph = { steps: row.graph.steps, transitions: row.graph.transitions };
    remember(key, graph);
  }
  return { name: automation.name, version: automation.version, ...graph, ...goalOf(automation) };
}

function remember(key: string, graph: GraphSnapshot): void {
  snapshots.set(key, graph);
  if (snapshots.size > MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
}

/**
 * The definition of the automation's graph as it stands (a simulation's, and a start's before any version). Each graph version is read (and checked) once per process:
 * a burst of triggers of one workflow then costs no reads of its steps. 400 when the graph cannot run.
 */
export async function definitionOf(em: EntityManager, automation: Automation): Promise<Definition> {
  const key = `${automation.id}:${automation.graphVersion}`;
  let graph = snapshots.get(key);
  if (!graph) {
    const loaded = await loadGraph(em, automation.id);
    const problems = graphProblems(loaded.steps, loaded.transitions);
    if (problems.length) throw invalidGraph('The workflow cannot run', problems);
    graph = snapshotOf(loaded);
    // Kept only if no edit came in between: then the steps read are that version's.
    const current = await em.findOne(Automation, { id: automation.id }, { fields: ['graphVersion'], refresh: true });
    if (current?.graphVersion === automation.graphVersion) remember(key, graph);
  }
  return { name: automation.name, ...graph, ...goalOf(automation) };
}

/** The goal is the automation's, not a graph's: it may change without a new version, and an execution takes it as it starts. */
const goalOf = (automation: Automation): Pick<Definition, 'goal'> => (automation.goal ? { goal: automation.goal } : {});
