import { Migration } from '@mikro-orm/migrations';

/**
 * A counter of a workflow's graph edits: starting an execution snapshots the graph, and a worker keeps the
 * snapshot of each version it has read, so that a burst of triggers reads the steps once.
 */
export class Migration0019AutomationGraphVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automations" add column "graph_version" integer not null default 0;`);
  }
}
