import type { EntityManager } from '@mikro-orm/postgresql';
import { ACTIVE_STATUSES, type ExecutionStatus, type StepHistoryEntry } from './definition';
import { AutomationExecution } from './entities';

/**
 * The execution record's side of the mirror: the workflow holds the truth and writes its whole state here,
 * through activities, after every change. Writes carry the workflow's sequence number, so a retried write
 * re-applies itself harmlessly. A record cancelled through the API accepts only the workflow's own CANCELLED.
 */
export interface MirrorState {
  executionId: string;
  seq: number;
  status: ExecutionStatus;
  currentStepId: string | null;
  /** The write enters a new step: its start (step_started_at) is now. */
  stepBegins: boolean;
  waitingFor: string | null;
  context: Record<string, unknown>;
  history: StepHistoryEntry[];
  exitReason: string | null;
  error: string | null;
  ended: boolean;
  temporalRunId: string;
}

const WRITE = `
update automation_executions set
  "status" = ?, "current_step_id" = ?, "step_started_at" = case when ? then ?::timestamptz else "step_started_at" end,
  "waiting_for" = ?, "context" = ?::jsonb, "history" = ?::jsonb, "exit_reason" = ?, "error" = ?,
  "completed_at" = case when ? then coalesce("completed_at", ?::timestamptz) end,
  "temporal_run_id" = ?, "seq" = ?, "updated_at" = now()
where "id" = ? and "seq" <= ? and ("status" <> 'CANCELLED' or ? = 'CANCELLED')
returning "step_started_at"`;

/** Applies the state; null when the record is gone or was cancelled (the run has nothing left to do). */
export async function writeMirror(em: EntityManager, s: MirrorState, now = new Date()): Promise<{ stepStartedAt: Date } | null> {
  const rows = await em.execute<Array<{ step_started_at: Date }>>(WRITE, [
    s.status, s.currentStepId, s.stepBegins, now, s.waitingFor, JSON.stringify(s.context), JSON.stringify(s.history), s.exitReason,
    s.error, s.ended, now, s.temporalRunId, s.seq, s.executionId, s.seq, s.status,
  ]);
  const [row] = rows;
  return row ? { stepStartedAt: new Date(row.step_started_at) } : null;
}

/** The execution if it is still RUNNING or WAITING: what a step activity checks before it acts. */
export const liveExecution = (em: EntityManager, executionId: string) =>
  em.findOne(AutomationExecution, { id: executionId, status: { $in: [...ACTIVE_STATUSES] } });
