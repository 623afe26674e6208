import { Migration } from '@mikro-orm/migrations';

/**
 * Queued contact jobs (CSV import, bulk operations). The job row is what polling reads, so it works whatever
 * the Temporal server keeps; its chunks hold the work itself, so workflow inputs stay small. A chunk's
 * `done_at` is set in the same transaction as the chunk's writes: a retried activity finds it set and
 * skips the chunk instead of applying it twice.
 */
export class Migration0010Jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "jobs" (
  "id" varchar(64) primary key,
  "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "kind" text not null check ("kind" in ('import', 'bulk')),
  "state" text not null check ("state" in ('waiting', 'active', 'completed', 'failed')),
  "total" integer not null check ("total" >= 0),
  "processed" integer not null default 0 check ("processed" >= 0),
  "result" jsonb not null,
  "failed_reason" text null,
  "finished_at" timestamptz null);
create index "jobs_project_created_index" on "jobs" ("project_id", "created_at" desc);

create table "job_chunks" (
  "job_id" varchar(64) not null references "jobs" ("id") on delete cascade deferrable initially deferred,
  "seq" integer not null,
  "items" jsonb null,
  "done_at" timestamptz null,
  primary key ("job_id", "seq"));
`);
  }
}
