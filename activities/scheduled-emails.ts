import type { Deps } from '../src/deps';
import { releaseDue } from '../src/modules/emails/schedule';

export function createScheduledEmailActivities(deps: Deps) {
  return {
    /** Hands the project's SCHEDULED emails due by `dueAt` to the delivery queue; a repeat finds them released. */
    async releaseScheduledEmails(projectId: string, dueAt: string): Promise<number> {
      return releaseDue(deps.orm, projectId, new Date(dueAt));
    },
  };
}

export type ScheduledEmailActivities = ReturnType<typeof createScheduledEmailActivities>;
