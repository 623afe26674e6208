import { Migration } from '@mikro-orm/migrations';
import { applyCounts, FLIPPED, INSERTED } from './0005-audience-throughput';
import { trigger } from './0024-activity-rollups';

/**
 * contact_counts slots by connection, as migration 0026 made them for the email and event rollups: a statement
 * that writes many contacts (an import chunk, a batch of tracks, a bulk job's chunk) spread them over all 32
 * slots by contact id, so it locked every slot of the project until its commit and concurrent ones queued.
 * Readers sum the slots; a slot may go below zero when contacts counted in by one connection leave by another.
 * A deletion takes its counts from the lowest existing slot, as in 0026, so it never adds rows (a project
 * being deleted gets none back).
 */
export const CONTACT_SLOT = () => 'pg_backend_pid() % 32';

const DELETED = `
update "contact_counts" s set "n" = s."n" - d."n"
from (select "project_id", "subscribed", count(*) as "n" from "old_rows" group by 1, 2) d
where s."project_id" = d."project_id" and s."subscribed" = d."subscribed"
  and s."slot" = (select min(x."slot") from "contact_counts" x where x."project_id" = d."project_id" and x."subscribed" = d."subscribed")`;

export class Migration0027ContactCountsSlotPerConnection extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
${trigger('contact_counts_insert', applyCounts(INSERTED, CONTACT_SLOT), true)}
${trigger('contact_counts_delete', DELETED, true)}
${trigger('contact_counts_update', applyCounts(FLIPPED, CONTACT_SLOT), true)}
`);
  }
}
