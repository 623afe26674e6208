import { Migration } from '@mikro-orm/migrations';

/**
 * Outbound webhooks (docs/webhooks.md).
 *
 * Events get the id of the transaction that recorded them (`txid`, filled by its default, so no writer
 * changes). An endpoint reads the events of its project in (txid, seq) order, only below the oldest
 * transaction still running: every transaction under that mark has ended, so the stream has no gap an
 * event committing later could fall into, and each endpoint keeps its place as (cursor_txid, cursor_seq).
 * Rows older than this migration have no txid and are never streamed; replay reaches them by date.
 */
export class Migration0033Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "events" add column "txid" xid8 null;
alter table "events" alter column "txid" set default pg_current_xact_id();
create index "events_project_txid_seq_index" on "events" ("project_id", "txid", "seq") where "txid" is not null;

create table "webhook_endpoints" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "url" text not null,
  "description" text null,
  "events" jsonb not null default '[]',
  "enabled" boolean not null default true,
  "disabled_reason" text null,
  "secret" text not null,
  "previous_secret" text null,
  "previous_secret_expires_at" timestamptz null,
  "cursor_txid" xid8 not null default pg_snapshot_xmin(pg_current_snapshot()),
  "cursor_seq" bigint not null default 0);
create index "webhook_endpoints_project_index" on "webhook_endpoints" ("project_id", "created_at" desc);

create table "webhook_deliveries" (
  "id" uuid primary key, "created_at" timestamptz not null default now(),
  "seq" bigint generated always as identity,
  "endpoint_id" uuid not null references "webhook_endpoints" ("id") on delete cascade,
  "event_id" uuid null,
  "replay" boolean not null default false,
  "type" varchar(255) not null,
  "body" text not null,
  "status" text not null default 'PENDING' check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED')),
  "attempts" integer not null default 0,
  "last_status_code" integer null,
  "last_error" text null,
  "last_attempt_at" timestamptz null,
  "next_attempt_at" timestamptz null);
-- Exactly once in the log per endpoint and event; a replay adds a row of its own.
create unique index "webhook_deliveries_event_unique" on "webhook_deliveries" ("endpoint_id", "event_id")
  where "event_id" is not null and not "replay";
create index "webhook_deliveries_pending_index" on "webhook_deliveries" ("endpoint_id", "seq") where "status" = 'PENDING';
create index "webhook_deliveries_log_index" on "webhook_deliveries" ("endpoint_id", "created_at" desc, "seq" desc);
create index "webhook_deliveries_created_index" on "webhook_deliveries" ("created_at");
`);
  }
}
