import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const JOB_KINDS = ['import', 'bulk'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The states a poll reports (docs/jobs.md "States and progress"). */
export const JOB_STATES = ['waiting', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Counters and the first errors of a job, as the poll shows them; shaped by the job's kind. */
export type JobResult = Record<string, unknown> & { errors: unknown[] };

export const Job = defineEntity({
  name: 'Job',
  tableName: 'jobs',
  properties: {
    /** The workflow ID, `import:<uuid>` or `bulk:<uuid>`. */
    id: p.string().primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    projectId: p.uuid(),
    kind: p.enum([...JOB_KINDS]),
    state: p.enum([...JOB_STATES]),
    /** Rows or contact IDs to process. */
    total: p.integer(),
    processed: p.integer(),
    result: p.json<JobResult>(),
    failedReason: p.text().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type Job = InferEntity<typeof Job>;
