import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/prepared';
import type { Definition, ExecutionStatus, StepHistoryEntry } from '../../../workflows/automation/definition';

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
  /**
   * When the wait ends, where the step alone does not say (a DELAY until a local time of day, decided by the
   * activity that writes this WAITING state): the execution's resumesAt. Absent: cleared by the write.
   */
  resumesAt?: string;
}

/** The guarded write; `returning` names what the caller reads back. */
const write = (returning: string) => `
update automation_executions set
  "status" = ?, "current_step_id" = ?, "step_started_at" = case when ? then ?::timestamptz else "step_started_at" end,
  "waiting_for" = ?, "context" = ?::jsonb, "history" = ?::jsonb, "exit_reason" = ?, "error" = ?,
  "completed_at" = case when ? then coalesce("completed_at", ?::timestamptz) end,
  "temporal_run_id" = ?, "seq" = ?, "resumes_at" = ?::timestamptz, "updated_at" = now()
where "id" = ? and "seq" <= ? and ("status" <> 'CANCELLED' or ? = 'CANCELLED')
returning ${returning}`;

const writeParams = (s: MirrorState, now: Date) => [
  s.status,
  s.currentStepId,
  s.stepBegins,
  now,
  s.waitingFor,
  JSON.stringify(s.context),
  JSON.stringify(s.history),
  s.exitReason,
  s.error,
  s.ended,
  now,
  s.temporalRunId,
  s.seq,
  s.resumesAt ?? null,
  s.executionId,
  s.seq,
  s.status,
];

const WRITE = write('"id"');

// Every step of every execution runs one of these two, so both are prepared statements.
const WRITE_AND_READ = `
with w as (${write('"id", "project_id", "automation_id", "contact_id", "entry", "step_started_at"')})
select w.*, c."email", c."subscribed", c."data" from w join contacts c on c."id" = w."contact_id"`;

/** Applies the state; false when the record is gone or was cancelled (the run has nothing left to do). */
export async function writeMirror(em: EntityManager, s: MirrorState, now = new Date()): Promise<boolean> {
  return (await executePrepared<{ id: string }>(em, 'automation_mirror_write', WRITE, writeParams(s, now))).length > 0;
}

/** An execution that a step acts for, with its contact as the step sees it. */
export interface LiveExecution {
  execution: { id: string; projectId: string; automationId: string; contactId: string; entry: number; stepStartedAt: Date };
  contact: { id: string; email: string; subscribed: boolean; data: Record<string, unknown> };
}

interface LiveRow {
  id: string;
  project_id: string;
  automation_id: string;
  contact_id: string;
  entry: number;
  step_started_at: Date;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * Applies a state that enters (or waits in) a step, and reads back the execution and its contact, in one
 * round trip: what every step activity does before it acts. Null when the record is gone or cancelled.
 */
export async function writeAndRead(em: EntityManager, s: MirrorState, now = new Date()): Promise<LiveExecution | null> {
  const [row] = await executePrepared<LiveRow>(em, 'automation_mirror_write_read', WRITE_AND_READ, writeParams(s, now));
  if (!row) return null;
  return {
    execution: {
      id: row.id,
      projectId: row.project_id,
      automationId: row.automation_id,
      contactId: row.contact_id,
      entry: row.entry,
      stepStartedAt: new Date(row.step_started_at),
    },
    contact: { id: row.contact_id, email: row.email, subscribed: row.subscribed, data: row.data },
  };
}

interface MirrorRow {
  seq: number;
  status: ExecutionStatus;
  current_step_id: string | null;
  waiting_for: string | null;
  context: Record<string, unknown>;
  history: StepHistoryEntry[] | null;
  exit_reason: string | null;
  error: string | null;
  temporal_run_id: string | null;
}

const READ = `
select "seq", "status", "current_step_id", "waiting_for", "context", "history", "exit_reason", "error", "temporal_run_id"
from automation_executions where "id" = ?`;

/**
 * The state last written to the record, or null when it is gone: where an activity that moved the execution
 * through several steps, and was then run again (a retry, another worker after a crash), continues from.
 */
export async function readMirror(em: EntityManager, executionId: string): Promise<MirrorState | null> {
  const [row] = await executePrepared<MirrorRow>(em, 'automation_mirror_read', READ, [executionId]);
  if (!row) return null;
  return {
    executionId,
    seq: row.seq,
    status: row.status,
    currentStepId: row.current_step_id,
    stepBegins: false,
    waitingFor: row.waiting_for,
    context: row.context,
    history: row.history ?? [],
    exitReason: row.exit_reason,
    error: row.error,
    ended: !(row.status === 'RUNNING' || row.status === 'WAITING'),
    temporalRunId: row.temporal_run_id ?? '',
  };
}

/**
 * An execution moved to another version of its automation (docs/automations.md "Versions"): its record runs
 * `definition` from now on. False when the record is gone or has ended.
 */
export async function writeDefinition(em: EntityManager, executionId: string, definition: Definition): Promise<boolean> {
  const rows = await em.execute<Array<{ id: string }>>(
    `update automation_executions set "definition" = ?::jsonb, "updated_at" = now() where "id" = ? and "status" in ('RUNNING', 'WAITING') returning "id"`,
    [JSON.stringify(definition), executionId],
  );
  return rows.length > 0;
}
