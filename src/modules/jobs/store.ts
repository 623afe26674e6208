import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/prepared';
import type { JobKind, JobResult } from './entities';

/**
 * A job's state in PostgreSQL, written only by the job's workflow activities after creation. Each chunk is
 * claimed, applied and counted in one transaction, which is what makes a repeated activity harmless.
 */

export interface NewJob {
  id: string;
  projectId: string;
  kind: JobKind;
  total: number;
  result: JobResult;
}

/** What one chunk did: rows or IDs it covered, counters to add, errors to list. */
export interface ChunkOutcome {
  processed: number;
  counts: Record<string, number>;
  errors: unknown[];
}

/** A poll stays small whatever the upload: the counters are exact, the list stops here. */
export const MAX_LISTED_ERRORS = 1000;

/**
 * Chunks per insert statement: about 500 KB of an import's JSON, so that no statement's parameter (built and
 * written to the connection in one go) keeps the event loop long; a 5 MB import is some twenty statements. They
 * go with bound parameters (executePrepared): MikroORM's execute writes the values into the SQL text, escaping
 * them in JavaScript, which for a 5 MB import took most of a second of the API's CPU.
 */
const CHUNKS_PER_INSERT = 10;

const INSERT_JOB = `insert into jobs ("id", "created_at", "updated_at", "project_id", "kind", "state", "total", "processed", "result")
  values (?, now(), now(), ?, ?, 'waiting', ?, 0, ?::jsonb)`;
const INSERT_CHUNKS = `insert into job_chunks ("job_id", "seq", "items")
  select ?, ?::int + x.ord - 1, x.value from jsonb_array_elements(?::jsonb) with ordinality as x(value, ord)`;

/** The job and all of its chunks (each as JSON text) appear together or not at all. */
export async function createJob(em: EntityManager, job: NewJob, chunks: string[]): Promise<void> {
  await em.transactional(async (tx) => {
    await executePrepared(tx, 'job_insert', INSERT_JOB, [job.id, job.projectId, job.kind, job.total, JSON.stringify(job.result)]);
    for (let from = 0; from < chunks.length; from += CHUNKS_PER_INSERT) {
      const batch = `[${chunks.slice(from, from + CHUNKS_PER_INSERT).join(',')}]`;
      await executePrepared(tx, 'job_chunks_insert', INSERT_CHUNKS, [job.id, from, batch]);
    }
  });
}

/** For a job whose workflow could not be started. */
export async function deleteJob(em: EntityManager, id: string): Promise<void> {
  await em.execute('delete from jobs where "id" = ?', [id]);
}

/** The workflow has begun: waiting becomes active. False when the job is gone with its project. */
export async function beginJob(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute<unknown[]>(
    `update jobs set "state" = 'active', "updated_at" = now() where "id" = ? and "state" in ('waiting', 'active') returning "id"`,
    [id],
  );
  return rows.length > 0;
}

function merge(result: JobResult, outcome: ChunkOutcome): JobResult {
  const merged: JobResult = { ...result, errors: [...result.errors, ...outcome.errors].slice(0, MAX_LISTED_ERRORS) };
  for (const [key, n] of Object.entries(outcome.counts)) merged[key] = Number(result[key] ?? 0) + n;
  return merged;
}

/**
 * Applies chunk `seq` once. The claim (done_at set, items released) commits with `work`'s writes and the
 * job's new counters, so an activity retried after a crash, before or after that commit, neither loses
 * nor repeats the chunk. Returns false when the chunk was already done (or the job is gone).
 */
export async function runChunk(
  em: EntityManager,
  jobId: string,
  seq: number,
  work: (tx: EntityManager, chunk: { projectId: string; items: unknown }) => Promise<ChunkOutcome>,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [claimed] = await tx.execute<Array<{ project_id: string; items: unknown }>>(
      `update job_chunks k set "done_at" = now(), "items" = null from jobs j
       where k."job_id" = ? and k."seq" = ? and k."done_at" is null and j."id" = k."job_id"
       returning j."project_id", old."items" as "items"`,
      [jobId, seq],
    );
    if (!claimed) return false;
    const outcome = await work(tx, { projectId: claimed.project_id, items: claimed.items });
    const [job] = await tx.execute<Array<{ result: JobResult }>>('select "result" from jobs where "id" = ? for update', [jobId]);
    await tx.execute('update jobs set "processed" = "processed" + ?, "result" = ?::jsonb, "updated_at" = now() where "id" = ?', [
      outcome.processed,
      JSON.stringify(merge(job!.result, outcome)),
      jobId,
    ]);
    return true;
  });
}

/** The job's final result, or null when the job is gone; repeating it changes nothing. */
export async function finishJob(em: EntityManager, id: string): Promise<JobResult | null> {
  const [row] = await em.execute<Array<{ result: JobResult }>>(
    `update jobs set "state" = 'completed', "finished_at" = coalesce("finished_at", now()), "updated_at" = now()
     where "id" = ? and "state" <> 'failed' returning "result"`,
    [id],
  );
  return row?.result ?? null;
}

export async function failJob(em: EntityManager, id: string, reason: string): Promise<void> {
  await em.execute(
    `update jobs set "state" = 'failed', "failed_reason" = ?, "finished_at" = now(), "updated_at" = now()
     where "id" = ? and "state" in ('waiting', 'active')`,
    [reason, id],
  );
}
