import { Migration } from '@mikro-orm/migrations';

export class Migration0002Audience extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create extension if not exists pg_trgm;

create table "contacts" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "email" varchar(320) not null,
  "subscribed" boolean not null,
  "data" jsonb not null default '{}',
  constraint "contacts_project_id_email_unique" unique ("project_id", "email"));
create index "contacts_project_created_index" on "contacts" ("project_id", "created_at" desc, "id" desc);
create index "contacts_project_email_sort_index" on "contacts" ("project_id", "email", "id");
create index "contacts_email_trgm_index" on "contacts" using gin ("email" gin_trgm_ops);

-- The type of each custom field, inferred from its first non-null value and then fixed (docs/contacts.md, custom fields).
create table "contact_fields" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "key" varchar(255) not null,
  "type" text not null check ("type" in ('string', 'number', 'boolean', 'date')),
  "created_at" timestamptz not null,
  primary key ("project_id", "key"));

-- Tracked and service events. A row with null dispatched_at has not yet been handed to the automation
-- engine: the table itself is the durable outbox.
create table "events" (
  "id" uuid primary key, "created_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "contact_id" uuid not null references "contacts" ("id") on delete cascade deferrable initially deferred,
  "name" varchar(255) not null,
  "data" jsonb not null default '{}',
  "dispatched_at" timestamptz null);
create index "events_project_name_created_index" on "events" ("project_id", "name", "created_at" desc);
create index "events_contact_name_created_index" on "events" ("contact_id", "name", "created_at" desc);
create index "events_project_created_index" on "events" ("project_id", "created_at" desc, "id" desc);
create index "events_undispatched_index" on "events" ("created_at") where "dispatched_at" is null;

create table "idempotency_keys" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "key" varchar(255) not null,
  "method" varchar(10) not null,
  "path" varchar(255) not null,
  "created_at" timestamptz not null,
  "expires_at" timestamptz not null,
  "status_code" integer null,
  primary key ("project_id", "key"));
create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");

create table "segments" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "name" varchar(100) not null,
  "description" varchar(500) null,
  "type" text not null check ("type" in ('DYNAMIC', 'STATIC')),
  "condition" jsonb null,
  "track_membership" boolean not null default false,
  "member_count" integer not null default 0,
  "member_count_at" timestamptz null);
create index "segments_project_index" on "segments" ("project_id", "created_at" desc);

-- Static members, and the last computed membership of tracked dynamic segments.
create table "segment_members" (
  "segment_id" uuid not null references "segments" ("id") on delete cascade deferrable initially deferred,
  "contact_id" uuid not null references "contacts" ("id") on delete cascade deferrable initially deferred,
  "created_at" timestamptz not null,
  primary key ("segment_id", "contact_id"));
create index "segment_members_contact_index" on "segment_members" ("contact_id");
`);
  }
}
