import { Migration } from '@mikro-orm/migrations';

/**
 * A claim's lease is written in place (heap-only, no index entries): it had pushed the queue row's `due_at`
 * past the send, and `due_at` is in the queue's due index, so every lease wrote a new entry into each of the
 * queue's indexes (its primary key, the campaign's and the due index). The lease now runs until
 * `leased_until`, a column no index names; a claim passes over rows whose lease has not run out
 * (docs/delivery.md "The queue", docs/contributors/campaigns.md "Leases written in place"). Rows leased before
 * this migration keep their pushed `due_at`, which holds them just as long. A lease makes its row longer (its
 * `lease_id` and `leased_until`), and a claim leases most rows of a page at once, so pages are filled to 30%
 * (50% left about one lease in six without room); the queue holds a few batches, so the room costs little.
 */
export class Migration0163QueueLeasesInPlace extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "email_queue" add column "leased_until" timestamptz null;
alter table "email_queue" set (fillfactor = 30);
`);
  }
}
