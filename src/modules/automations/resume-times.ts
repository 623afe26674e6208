import type { EntityManager } from '@mikro-orm/postgresql';
import { resumesAtSql } from './step-types';

/** SQL of the step (jsonb) the execution aliased `x` is at, read from the definition it runs; null when none. */
export const currentStepSql = (x: string) =>
  `(select s from jsonb_array_elements(${x}."definition" -> 'steps') s where s ->> 'id' = ${x}."current_step_id"::text limit 1)`;

/**
 * SQL of when the execution aliased `x` moves on by itself, given SQL of its current step: the instant stored
 * with its WAITING mark (a DELAY until a local time, decided where the contact's zone is known), else the end
 * of a DELAY or the timeout of a WAIT_FOR_EVENT, counted from the step's start; null when only an event moves it on.
 */
export const executionResumesAtSql = (x: string, step: string) =>
  `coalesce(${x}."resumes_at", ${resumesAtSql(`${step} ->> 'type'`, `${x}."step_started_at"`, `(${step} -> 'config')`)})`;

const WAITING_UNTIL = `
select x."id", ${executionResumesAtSql('x', currentStepSql('x'))} as "resumes_at"
from automation_executions x where x."id" = any(?::uuid[]) and x."status" = 'WAITING'`;

/** When each of these executions that is WAITING resumes by itself (absent: not waiting, or waiting for an event alone). */
export async function resumeTimes(em: EntityManager, executionIds: string[]): Promise<Map<string, string>> {
  if (executionIds.length === 0) return new Map();
  const rows = await em.execute<Array<{ id: string; resumes_at: string | null }>>(WAITING_UNTIL, [`{${executionIds.join(',')}}`]);
  return new Map(rows.flatMap((r) => (r.resumes_at === null ? [] : [[r.id, new Date(r.resumes_at).toISOString()]])));
}
