import { Migration } from '@mikro-orm/migrations';

/**
 * Email records and their delivery queue (src/modules/emails). Each row is one message to one recipient,
 * rendered when it was accepted; the delivery pump claims due PENDING rows. See docs/delivery.md.
 */
export class Migration0012Emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
-- Emails per second the project may send in each lane (null: the deployment's EMAIL_RATE_PER_SECOND; 0: no limit).
alter table "projects" add column "email_rate_per_second" integer null check ("email_rate_per_second" >= 0);

create table "emails" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  -- Deleting a contact forgets the mail sent to it, and mail not yet sent is not sent.
  "contact_id" uuid null references "contacts" ("id") on delete cascade deferrable initially deferred,
  "to_address" varchar(320) not null, "to_name" varchar(255) null,
  "from_address" varchar(320) not null, "from_name" varchar(255) null,
  "reply_to" varchar(320) null,
  "subject" text not null, "html" text not null, "text" text null,
  "headers" jsonb not null default '{}',
  -- Attachments live in email_attachments; the count spares the pump a lookup for the many emails without.
  "attachment_count" integer not null default 0,
  "size_bytes" bigint not null,
  "template_id" uuid null references "templates" ("id") on delete set null deferrable initially deferred,
  -- Producers' keys; their tables are not referenced, so that an email outlives what produced it.
  "campaign_id" uuid null,
  "workflow_execution_id" uuid null, "workflow_step_id" uuid null,
  "source_type" text not null check ("source_type" in ('TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW')),
  "marketing" boolean not null default false,
  -- Claim order: transactional mail first, then automations, then campaigns.
  "priority" smallint generated always as (case "source_type" when 'TRANSACTIONAL' then 0 when 'WORKFLOW' then 1 else 2 end) stored,
  "status" text not null default 'PENDING'
    check ("status" in ('PENDING', 'SENT', 'DELIVERED', 'OPENED', 'CLICKED', 'BOUNCED', 'COMPLAINED', 'FAILED')),
  "sent_at" timestamptz null, "delivered_at" timestamptz null, "opened_at" timestamptz null, "clicked_at" timestamptz null,
  "bounced_at" timestamptz null, "complained_at" timestamptz null, "failed_at" timestamptz null,
  "error" text null,
  "attempts" integer not null default 0,
  -- PENDING: when the next attempt is due; while a worker holds the row (lease_id set), when its lease ends.
  "next_attempt_at" timestamptz not null,
  "lease_id" uuid null,
  -- A throttled row already holds a sending slot for its next_attempt_at, so it does not take another.
  "slot_reserved" boolean not null default false,
  constraint "emails_campaign_contact_unique" unique ("campaign_id", "contact_id"),
  constraint "emails_workflow_step_unique" unique ("workflow_execution_id", "workflow_step_id"),
  constraint "emails_workflow_step_pair" check (("workflow_execution_id" is null) = ("workflow_step_id" is null)));
create index "emails_due_index" on "emails" ("priority", "next_attempt_at") where "status" = 'PENDING';
create index "emails_project_created_index" on "emails" ("project_id", "created_at" desc, "id" desc);
create index "emails_contact_index" on "emails" ("contact_id");
create index "emails_template_index" on "emails" ("template_id") where "template_id" is not null;

create table "email_attachments" (
  "email_id" uuid not null references "emails" ("id") on delete cascade deferrable initially deferred,
  "position" smallint not null,
  "filename" varchar(255) not null,
  "content_type" varchar(255) not null,
  "content_id" varchar(255) null,
  "disposition" text not null check ("disposition" in ('attachment', 'inline')),
  "content" bytea not null,
  primary key ("email_id", "position"));

-- The sending throttle's state: per project and lane (source type), the theoretical arrival time of the next
-- email (GCRA). Unlogged: a crash only forgets how far ahead slots were handed out.
create unlogged table "email_send_slots" (
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "lane" text not null,
  "tat" timestamptz not null,
  primary key ("project_id", "lane"));

-- Wakes the delivery pumps when emails are committed (one notification per statement, delivered at commit).
create function "emails_enqueued_notify"() returns trigger language plpgsql as $fn$
begin
  perform pg_notify('email_delivery', '');
  return null;
end
$fn$;
create trigger "emails_enqueued_notify" after insert on "emails"
  for each statement execute function "emails_enqueued_notify"();
`);
  }
}
