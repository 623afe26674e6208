import type { Logger } from '../../../logger';
import { GuardedRounds } from './guarded-rounds';

/**
 * The first step of sending: an SMTP transaction (MAIL FROM) begins only for an email this worker still
 * holds, queued and not handed over, of a project that is not suspended, under a KEY SHARE lock on its queue
 * row and a SHARE lock on its project's row, both held until the MAIL FROM is written (GuardedRounds).
 * A withdrawal (deleting the queue row: a cancelled campaign or execution, a deleted contact) conflicts with
 * the first: it either waits for the round's COMMIT, by when the MAIL FROM has left and the hand-over will
 * refuse the dot, or it went first and the round no longer finds the row. A suspension (an update of the
 * project's row) conflicts with the second in the same way, and the round that waited for it reads the
 * project again and finds it suspended. So once a withdrawal or a suspension has committed, no transaction of
 * its emails begins, whichever worker had claimed them. KEY SHARE leaves lease renewals and outcome marks
 * free; SHARE holds back only updates of the projects being sent for, for one round trip.
 */
export class TransactionGate extends GuardedRounds {
  constructor(databaseUrl: string, logger: Logger) {
    super(
      databaseUrl,
      logger,
      'SMTP transaction starts',
      `
      select q."email_id" as "id" from email_queue q join unnest($1, $2) as h("id", "lease_id")
        on q."email_id" = h."id"
        join projects p on p."id" = q."project_id"
      where q."email_id" = any($1) and q."lease_id" = h."lease_id" and q."handed_over_at" is null and not p."disabled"
      order by q."email_id" for key share of q for share of p`,
    );
  }
}
