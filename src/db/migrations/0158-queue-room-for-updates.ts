import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery queue's pages are filled to half, so that a row's updates (its lease, its hand-over mark) find
 * room on its own page. Filled whole by an enqueue's batch, each update went to another page: a lock record
 * first (PostgreSQL locks the old version before it lets go of its page), and the hand-over's mark, which
 * changes no indexed column, could be heap-only only half the time. A 20,000-recipient campaign wrote 40.1
 * WAL records per email, 37.6-37.7 after (docs/contributors/campaigns.md "What an email writes"). The queue
 * holds what is due or under way, a few thousand rows, so half-full pages cost little space.
 */
export class Migration0158QueueRoomForUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "email_queue" set (fillfactor = 50);`);
  }
}
