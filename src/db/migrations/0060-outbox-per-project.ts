import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox hands events over project by project in turn (docs/architecture.md "Events: the outbox"): this
 * index finds the projects with due events (a skip scan, one probe per project) and each one's oldest.
 */
export class Migration0060OutboxPerProject extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create index "events_due_by_project_index" on "events" ("project_id", "next_dispatch_at", "seq") where "dispatched_at" is null;
`);
  }
}
