import type { Logger } from '../../../logger';
import { GuardedRounds } from './guarded-rounds';

/**
 * The last step of sending, where a message becomes the SMTP server's: its terminating dot (docs/delivery.md,
 * "Exactly once"). A message waits here with everything but that dot on its connection. A round marks the
 * waiting emails handed over (`handed_over_at`) where this worker still holds their lease and they are still
 * PENDING, then writes the dots of the marked ones and the COMMIT in one synchronous run (GuardedRounds).
 *
 * So a worker killed before that run leaves neither: the transaction rolls back with its connection and the
 * server discards the unfinished messages. Killed after it, the kernel still delivers both the dots and the
 * COMMIT, and the mark tells whoever takes the emails over that they were sent. Only a kill within the run
 * itself, between two writes of a few microseconds, can send a message whose mark is then lost: the dots go
 * first, so that such a message is sent twice rather than never. A message whose lease another worker took,
 * or that was withdrawn meanwhile (deleted: its contact, a cancelled campaign or execution), gets no dot;
 * a withdrawal that waited for the round's row locks finds the email handed over, and leaves it.
 */
export class HandOver extends GuardedRounds {
  constructor(databaseUrl: string, logger: Logger) {
    super(
      databaseUrl,
      logger,
      'hand-over marks',
      `
      update email_queue q set "handed_over_at" = clock_timestamp()
      from (select m."email_id" from email_queue m join unnest($1, $2) as h("id", "lease_id")
          on m."email_id" = h."id"
          join emails e on e."id" = m."email_id"
        where m."email_id" = any($1) and m."lease_id" = h."lease_id" order by m."email_id" for no key update of m for key share of e) l
      where q."email_id" = any($1) and q."email_id" = l."email_id"
      returning q."email_id" as "id"`,
    );
  }
}
