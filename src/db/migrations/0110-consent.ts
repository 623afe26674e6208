import { Migration } from '@mikro-orm/migrations';

/**
 * Consent (docs/consent.md): topics and each contact's choices, the contact's confirmation and snooze state,
 * hosted signup forms and pending double opt-in confirmations; campaigns and emails may name a topic.
 *
 * `contact_topics` keeps only choices a contact made: a contact with no row for a topic is in it when the
 * topic's default is IN, so a topic created with default IN reaches every contact without writing a row for
 * each. `contact_consent` has a row only for contacts that went through double opt-in or snoozed, so the
 * audience check (an anti-join on its key) costs nothing for the others.
 */
export class Migration0110Consent extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "topics" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "name" text not null,
  "description" text null,
  "default_membership" text not null check ("default_membership" in ('IN', 'OUT')));
create unique index "topics_project_name_unique" on "topics" ("project_id", lower("name"));
create index "topics_project_created_index" on "topics" ("project_id", "created_at", "id");

create table "contact_topics" (
  "topic_id" uuid not null references "topics" ("id") on delete cascade,
  "contact_id" uuid not null references "contacts" ("id") on delete cascade,
  "member" boolean not null,
  "changed_at" timestamptz not null,
  primary key ("topic_id", "contact_id"));
create index "contact_topics_contact_index" on "contact_topics" ("contact_id");

create table "contact_consent" (
  "contact_id" uuid primary key references "contacts" ("id") on delete cascade,
  "unconfirmed" boolean not null default false,
  "confirmed_at" timestamptz null,
  "snoozed_until" timestamptz null,
  "snoozed_at" timestamptz null);

create table "signup_forms" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "name" text not null,
  "title" text not null,
  "fields" jsonb not null,
  "topic_ids" jsonb not null default '[]',
  "double_opt_in" boolean not null default false,
  "confirmation_template_id" uuid null references "templates" ("id") on delete set null,
  "redirect_url" text null,
  "success_message" text null,
  "submit_label" text not null);
create index "signup_forms_project_created_index" on "signup_forms" ("project_id", "created_at" desc, "id" desc);

create table "confirmations" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "contact_id" uuid not null references "contacts" ("id") on delete cascade,
  "form_id" uuid null references "signup_forms" ("id") on delete set null,
  "template_id" uuid null references "templates" ("id") on delete set null,
  "status" text not null check ("status" in ('PENDING', 'CONFIRMED', 'EXPIRED')),
  "intent" jsonb not null,
  "expires_at" timestamptz not null,
  "last_sent_at" timestamptz not null,
  "sent_count" integer not null default 1,
  "reminded_at" timestamptz null,
  "confirmed_at" timestamptz null);
-- One pending confirmation per contact: a second signup extends it.
create unique index "confirmations_pending_unique" on "confirmations" ("contact_id") where "status" = 'PENDING';
create index "confirmations_project_index" on "confirmations" ("project_id");

alter table "campaigns" add column "topic_id" uuid null references "topics" ("id") on delete set null;
create index "campaigns_topic_index" on "campaigns" ("topic_id") where "topic_id" is not null;
alter table "emails" add column "topic_id" uuid null;
`);
  }
}
