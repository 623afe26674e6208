import type { Deps } from '../src/deps';
import { releaseScheduled } from '../src/modules/emails/schedule';
import type { ReleaseResult } from '../workflows/scheduled-email/ids';

export function createScheduledEmailActivities(deps: Deps) {
  return {
    /** Hands a SCHEDULED email due by `dueAt` to the delivery queue, or says when it is due now; a repeat finds it released. */
    async releaseScheduledEmail(emailId: string, dueAt: string): Promise<ReleaseResult> {
      return releaseScheduled(deps.orm.em.fork(), emailId, dueAt);
    },
  };
}

export type ScheduledEmailActivities = ReturnType<typeof createScheduledEmailActivities>;
