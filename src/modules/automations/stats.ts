import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BRANCHES,
  EXECUTION_STATUSES,
  OUTCOMES,
  type Branch,
  type ExecutionStatus,
  type Outcome,
} from '../../../workflows/automation/definition';
import { branchesOf } from '../../../workflows/automation/graph';
import { WORKFLOW_STEPS } from '../../../workflows/automation/steps';
import { AutomationStep } from './entities';
import type { WorkflowStatsResponse } from './schemas';
import { findAutomation } from './service';

/**
 * What became of an execution at a step: still there, went on (or ended after it), reached the goal, failed or was
 * cancelled there.
 */
type Fate = 'waiting' | 'left' | 'converted' | 'failed' | 'cancelled';

/**
 * Counts in one statement over the workflow's executions: each execution's step history (every step it entered,
 * with the step's status and output, docs/automations.md "Records") gives the steps' figures, its status the
 * totals. An entry still RUNNING or WAITING on an execution that has ended was cancelled (or failed) through the
 * record before the run wrote the step's end. An execution recorded but not yet started has no history: it is at
 * its current step. `way` is the branch taken, or TIMEOUT for a wait that timed out; `reached` whether the
 * execution went on to reach its goal (CONVERTED), there or later: the conversions of each path.
 */
const STATS = `
with x as (select "status", "current_step_id", "history", "status" = 'CONVERTED' as "reached" from automation_executions where "automation_id" = ?),
passes as (
  select h->>'stepId' as "step_id",
    case
      when h->>'status' in ('RUNNING', 'WAITING') then
        case when x."status" in ('RUNNING', 'WAITING') then 'waiting' when x."status" in ('FAILED', 'CONVERTED') then lower(x."status") else 'cancelled' end
      when h->>'status' = 'COMPLETED' then 'left'
      else lower(h->>'status')
    end as "fate",
    case when h->>'status' = 'COMPLETED' then
      coalesce(h->'output'->>'branch', case when h->'output'->>'timedOut' = 'true' then 'TIMEOUT' end)
    end as "way",
    x."reached"
  from x cross join lateral jsonb_array_elements(x."history") h
  union all
  select x."current_step_id"::text, 'waiting', null, false from x
  where jsonb_array_length(x."history") = 0 and x."status" in ('RUNNING', 'WAITING') and x."current_step_id" is not null)
select 'status' as "kind", "status" as "key", null as "fate", null as "way", false as "reached", count(*)::int as "n" from x group by "status"
union all
select 'step', "step_id", "fate", "way", "reached", count(*)::int from passes group by "step_id", "fate", "way", "reached"`;

interface Row {
  kind: 'status' | 'step';
  key: string;
  fate: Fate | null;
  way: string | null;
  reached: boolean;
  n: number;
}

type StepStats = WorkflowStatsResponse['steps'][number];

/**
 * GET /workflows/{id}/stats: per step, how many executions entered, wait there, left, reached the goal, failed or
 * were cancelled there, and by which way; and how many of those that passed each step and way reached the goal.
 */
export async function workflowStats(em: EntityManager, projectId: string, automationId: string): Promise<WorkflowStatsResponse> {
  await findAutomation(em, projectId, automationId);
  const [steps, rows] = await Promise.all([
    em.find(AutomationStep, { automationId }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    em.execute<Row[]>(STATS, [automationId]),
  ]);
  const totals = Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) as Record<ExecutionStatus, number>;
  for (const r of rows) if (r.kind === 'status') totals[r.key as ExecutionStatus] = r.n;
  return {
    workflowId: automationId,
    executions: { total: EXECUTION_STATUSES.reduce((sum, s) => sum + totals[s], 0), ...totals },
    steps: steps.map((step) =>
      stepStats(
        step,
        rows.filter((r) => r.kind === 'step' && r.key === step.id),
      ),
    ),
  };
}

function stepStats(step: AutomationStep, rows: Row[]): StepStats {
  const fates: Record<Fate, number> = { waiting: 0, left: 0, converted: 0, failed: 0, cancelled: 0 };
  for (const r of rows) fates[r.fate!] += r.n;
  const sum = (of: Row[]) => of.reduce((total, r) => total + r.n, 0);
  const left = rows.filter((r) => r.fate === 'left');
  const results = WORKFLOW_STEPS[step.type].results;
  const taken = (way: string) => sum(left.filter((r) => r.way === way));
  const reachedBy = (way: string) => sum(left.filter((r) => r.way === way && r.reached));
  const timedOut = taken('TIMEOUT');
  const ways: Record<Outcome, { taken: number; goalReached: number }> = {
    EVENT: { taken: fates.left - timedOut, goalReached: sum(left.filter((r) => r.way !== 'TIMEOUT' && r.reached)) },
    TIMEOUT: { taken: timedOut, goalReached: reachedBy('TIMEOUT') },
  };
  // A branch a split no longer has still shows while executions took it.
  const configured = new Set<Branch>(branchesOf(step));
  const branches = BRANCHES.filter((b) => configured.has(b) || taken(b) > 0);
  return {
    stepId: step.id,
    type: step.type,
    name: step.name ?? null,
    entered: fates.waiting + fates.left + fates.converted + fates.failed + fates.cancelled,
    ...fates,
    goalReached: sum(rows.filter((r) => r.reached)),
    branches: results.includes('branch')
      ? branches.map((branch) => ({ branch, taken: taken(branch), goalReached: reachedBy(branch) }))
      : null,
    outcomes: results.includes('timeout') ? OUTCOMES.map((outcome) => ({ outcome, ...ways[outcome] })) : null,
  };
}
