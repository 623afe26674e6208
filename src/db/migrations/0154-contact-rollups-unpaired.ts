import { Migration } from '@mikro-orm/migrations';
import { applyCounts, DELETED, INSERTED } from './0005-audience-throughput';
import { trigger } from './0024-activity-rollups';
import { CONTACT_SLOT } from './0027-contact-counts-slot-per-connection';
import { upsert as upsertFieldCounts } from './0030-field-catalog';

/**
 * The contact rollups' update triggers count every row in with its new values and out with its old ones; a row
 * that kept them adds +1 and -1 to the same count, so the sums are as before. They had paired the old and new
 * rows by id, a join of the two transition tables, which PL/pgSQL plans once per connection with the sizes of
 * its first run: a connection whose first contact update was of one row kept a nested loop, and every later
 * statement compared each new row with each old one (an import chunk of 500: 365 ms instead of 83,
 * docs/contributors/jobs.md "Speed"). Unpaired, there is no join to plan; the field counts walk the data of
 * rows whose data did not change too (about 15 µs a row).
 */
const FLIPPED = `${INSERTED}
  union all
  ${DELETED}`;

const FIELDS_UPDATED = upsertFieldCounts(`
  select d."project_id", d."key", sum(d."sign") as "n" from (
    select n."project_id", k."key", 1 as "sign" from "new_rows" n cross join lateral "contact_data_paths"(n."data") k("key")
    union all
    select o."project_id", k."key", -1 from "old_rows" o cross join lateral "contact_data_paths"(o."data") k("key")) d
  group by 1, 2`);

export class Migration0154ContactRollupsUnpaired extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
${trigger('contact_counts_update', applyCounts(FLIPPED, CONTACT_SLOT), true)}
${trigger('contact_field_counts_update', FIELDS_UPDATED, true)}
`);
  }
}
