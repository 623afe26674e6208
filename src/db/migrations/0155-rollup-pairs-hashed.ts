import { Migration } from '@mikro-orm/migrations';

/**
 * The email rollup's update trigger pairs old and new emails by a join of the two transition tables (migration
 * 0150), which PL/pgSQL plans once per connection with the sizes of its first run: a connection whose first
 * email update was of one email (a transactional SENT mark) kept a nested loop, and each later campaign SENT mark
 * of about 190 emails compared every new row with every old one (the trigger 11-16 ms instead of 1.6-2.7,
 * docs/contributors/analytics.md "Rollups"). Without nested loops the pairs are hashed or merged whatever the
 * first run's sizes; a one-email update costs the same. A migration that replaces the function must keep the setting.
 */
export class Migration0155RollupPairsHashed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter function "email_stats_update"() set enable_nestloop = off;`);
  }
}
