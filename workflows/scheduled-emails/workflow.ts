import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { ScheduledEmailActivities } from '../../activities/scheduled-emails';
import type { ScheduledEmailsInput } from './ids';

// Short database statements: a local activity, retried with backoff for as long as the database is away.
const { releaseScheduledEmails } = proxyLocalActivities<ScheduledEmailActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '1 minute' },
});

/**
 * The timer of a project's scheduled emails due within one second (workflow ID
 * `scheduled-emails:<projectId>:<dueAt>`, docs/sending.md "Scheduled sends"): a durable timer until `dueAt`,
 * then every email of the project still SCHEDULED and due by `dueAt` goes to the delivery queue. The emails'
 * rows are the truth: a cancelled email is no longer SCHEDULED, a rescheduled one is due later (its new
 * second has a run of its own), so the run needs no signal and a run that finds nothing ends. Returns how
 * many emails it released.
 */
export async function scheduledEmails(input: ScheduledEmailsInput): Promise<number> {
  const waitMs = Date.parse(input.dueAt) - Date.now();
  if (waitMs > 0) await sleep(waitMs, { summary: `Wait until ${input.dueAt}` });
  return releaseScheduledEmails(input.projectId, input.dueAt);
}
