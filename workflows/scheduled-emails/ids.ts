/**
 * Names and the contract of the timers of scheduled emails, shared by the workflow, its activity and the API.
 *
 * One run per project and second (docs/sending.md "Scheduled sends"): every email of the project due within
 * that second waits on the same durable timer, which fires at the second's end and releases them, so 10,000
 * emails due in one minute cost at most 60 runs rather than 10,000.
 */

/** The width of a timer's second: an email leaves at most this long after its sendAt, plus the pump's own time. */
export const BUCKET_MS = 1_000;

/** The end of the second `at` falls in (at itself when it is a second's first instant): when its timer fires. */
export const bucketOf = (at: Date): Date => new Date(Math.ceil(at.getTime() / BUCKET_MS) * BUCKET_MS);

export const scheduledEmailsWorkflowId = (projectId: string, dueAt: Date) => `scheduled-emails:${projectId}:${dueAt.toISOString()}`;

/** The run's static summary in the Web UI: "Scheduled emails of project <id> due by 2026-12-01T09:00:05.000Z". */
export const scheduledEmailsSummary = (projectId: string, dueAt: Date) =>
  `Scheduled emails of project ${projectId} due by ${dueAt.toISOString()}`;

export interface ScheduledEmailsInput {
  projectId: string;
  /** ISO 8601: the end of the second; every SCHEDULED email of the project due by then is released. */
  dueAt: string;
}
