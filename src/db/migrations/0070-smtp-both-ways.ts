import { Migration } from '@mikro-orm/migrations';

/**
 * Inbound mail and the SMTP relay (docs/smtp.md). A domain's `inbound` switch; inbound emails kept whole (the
 * raw bytes received, the parsed fields, the attachments' keys in the uploads storage); and the messages the
 * relay accepted, kept once as given and shared by the emails of their envelope recipients. `dedup_key` is the
 * client's Message-ID while it still guards against a second send (24 hours; cleared when a later message
 * with the same id comes after that), `message_id` stays for linking replies.
 */
export class Migration0070SmtpBothWays extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "domains" add column "inbound" boolean not null default false;

create table "inbound_emails" (
  "id" uuid primary key,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "contact_id" uuid references "contacts" ("id") on delete set null,
  "from_address" text not null,
  "from_name" text,
  "envelope_from" text,
  "to" jsonb not null,
  "cc" jsonb not null,
  "subject" text not null,
  "text" text,
  "html" text,
  "headers" jsonb not null,
  "message_id" text,
  "in_reply_to" text,
  "attachments" jsonb not null,
  "auth" jsonb not null,
  "in_reply_to_email_id" uuid references "emails" ("id") on delete set null,
  "size_bytes" integer not null,
  "raw" bytea not null,
  "received_at" timestamptz not null,
  "created_at" timestamptz not null,
  "updated_at" timestamptz not null
);
create index "inbound_emails_project_received" on "inbound_emails" ("project_id", "received_at" desc, "id" desc);

create table "relayed_messages" (
  "id" uuid primary key,
  "project_id" uuid not null references "projects" ("id") on delete cascade,
  "message_id" text,
  "dedup_key" text,
  "first_email_id" uuid,
  "raw" bytea not null,
  "created_at" timestamptz not null default now()
);
create unique index "relayed_messages_dedup" on "relayed_messages" ("project_id", "dedup_key") where "dedup_key" is not null;
create index "relayed_messages_message_id" on "relayed_messages" ("project_id", "message_id") where "message_id" is not null;

alter table "emails" add column "relayed_message_id" uuid references "relayed_messages" ("id") on delete cascade;
create index "emails_relayed_message" on "emails" ("relayed_message_id") where "relayed_message_id" is not null;
`);
  }
}
