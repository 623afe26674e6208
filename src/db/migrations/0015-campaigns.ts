import { Migration } from '@mikro-orm/migrations';

/**
 * Campaigns and the recipients a send fixes when it starts (src/modules/campaigns, docs/campaigns.md).
 * `segment_id` has no foreign key: a sent campaign keeps naming the segment it went to after the segment is
 * deleted (deleting one that a DRAFT, SCHEDULED or SENDING campaign uses is refused). `send_id` names the
 * current send, so that activities of a cancelled or restarted one recognise that they are stale.
 */
export class Migration0015Campaigns extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "campaigns" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "name" varchar(255) not null,
  "description" text null,
  "subject" text not null,
  "body" text not null,
  "from_address" varchar(320) not null,
  "from_name" varchar(255) null,
  "reply_to" varchar(320) null,
  "type" text not null check ("type" in ('TRANSACTIONAL', 'MARKETING', 'HEADLESS')),
  "template_id" uuid null references "templates" ("id") on delete set null deferrable initially deferred,
  "status" text not null check ("status" in ('DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED')),
  "audience_type" text not null check ("audience_type" in ('ALL', 'SEGMENT', 'FILTERED')),
  "segment_id" uuid null,
  "audience_condition" jsonb null,
  "scheduled_for" timestamptz null,
  "send_id" uuid null,
  "total_recipients" integer not null default 0 check ("total_recipients" >= 0),
  "sent_at" timestamptz null,
  constraint "campaigns_segment_audience" check ("audience_type" <> 'SEGMENT' or "segment_id" is not null),
  constraint "campaigns_filtered_audience" check ("audience_type" <> 'FILTERED' or "audience_condition" is not null),
  constraint "campaigns_scheduled_time" check ("status" <> 'SCHEDULED' or "scheduled_for" is not null));
create index "campaigns_project_created_index" on "campaigns" ("project_id", "created_at" desc, "id" desc);
create index "campaigns_segment_index" on "campaigns" ("segment_id") where "segment_id" is not null;
create index "campaigns_template_index" on "campaigns" ("template_id") where "template_id" is not null;

-- The audience of the send under way, written in contact-id order by cursor-paged batches and read back the
-- same way when its emails are created. Rows go when the send ends.
create table "campaign_recipients" (
  "campaign_id" uuid not null references "campaigns" ("id") on delete cascade deferrable initially deferred,
  "contact_id" uuid not null,
  primary key ("campaign_id", "contact_id"));

-- A send waits until none of its emails is PENDING; this keeps that question cheap for large campaigns.
create index "emails_campaign_pending_index" on "emails" ("campaign_id") where "status" = 'PENDING' and "campaign_id" is not null;
`);
  }
}
