import { Migration } from '@mikro-orm/migrations';
import {
  EMAIL_COLUMNS,
  SHAPE_0024,
  allEmails,
  insertedEmails,
  trigger,
  updatedEmails,
  upsertEmailDeltas,
  type RollupShape,
} from './0024-activity-rollups';
import { CONNECTION_SLOT, connectionSlotDelete } from './0026-rollup-slot-per-connection';

/**
 * Reputation guardrails (docs/security.md, docs/operators.md).
 *
 * Emails: `simulated` marks mail to the sandbox's simulator domain (set at enqueue), which reputation figures,
 * analytics and billing leave out; `hard_bounced_at` dates a permanent bounce, which the bounce rate counts
 * (a transient one sets only `bounced_at`). Both are in the email_stats rollup: `simulated` as a key column,
 * so that readers choose, and `hard_bounced` as a counter, so that the rate over a window reads one row per
 * hour rather than the emails.
 *
 * Projects: the trigger that keeps the suspension history (migration 0003) now also says who acted
 * (`postwire.actor`: automatic or operator, the default for a flip typed in SQL), writes the operators' audit
 * list, queues the owners' notice and, on a reinstatement, makes the held emails due again; `reputation_warned_at` keeps the warning email to once a day, and the
 * grace columns make automatic suspension wait after a reinstatement.
 *
 * The queue: a held email (its project suspended) is due at 'infinity', so claims pass over it at no cost;
 * the partial index finds a project's held emails when it is reinstated.
 */
export const SHAPE_0040: RollupShape = {
  columns: [...EMAIL_COLUMNS, 'simulated', 'hard_bounced_at'],
  stages: [...SHAPE_0024.stages, 'hard_bounced'],
  key: [...SHAPE_0024.key, 'simulated'],
};

/** Rows counted afresh go to slot 0, where the fold of past hours puts them (compact-rollups.ts). */
const FOLDED = () => '0';

export class Migration0040ReputationGuardrails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "emails" add column "simulated" boolean not null default false, add column "hard_bounced_at" timestamptz null;
update "emails" set "simulated" = true where lower("to_address") like '%@simulator.postwire.test';
update "emails" e set "hard_bounced_at" = b."at"
from (select ("data"->>'emailId')::uuid as "id", min("created_at") as "at" from "events"
      where "name" = 'email.bounce' and "data"->>'bounceType' = 'Permanent' and "data"->>'emailId' ~ '^[0-9a-f-]{36}$' group by 1) b
where e."id" = b."id";

-- The rollup gains its key column and counter, and is counted again from the emails.
alter table "email_stats" add column "simulated" boolean not null default false, add column "hard_bounced" integer not null default 0;
drop index "email_stats_key";
create unique index "email_stats_key" on "email_stats" ("project_id", "hour", "source_type", "campaign_id", "simulated", "slot") nulls not distinct;
delete from "email_stats";
${upsertEmailDeltas(allEmails(SHAPE_0040, FOLDED), FOLDED, SHAPE_0040)};
${trigger('email_stats_insert', upsertEmailDeltas(insertedEmails(CONNECTION_SLOT, SHAPE_0040), CONNECTION_SLOT, SHAPE_0040), true)}
${trigger('email_stats_update', upsertEmailDeltas(updatedEmails(CONNECTION_SLOT, SHAPE_0040), CONNECTION_SLOT, SHAPE_0040), true)}
${trigger('email_stats_delete', connectionSlotDelete(SHAPE_0040), true)}

alter table "projects" add column "reputation_warned_at" timestamptz null,
  -- After a reinstatement: the UTC hour from which sent emails count towards REPUTATION_MIN_SENT, and those
  -- of that hour already sent when it happened.
  add column "reputation_grace_hour" timestamptz null,
  add column "reputation_grace_base" integer not null default 0;

alter table "project_suspensions" add column "by" text not null default 'operator' check ("by" in ('automatic', 'operator'));

-- Every suspension and reinstatement, for the operators (GET /admin/audit). No foreign key: the record
-- outlives the project.
create table "project_audit" (
  "id" uuid primary key default gen_random_uuid(),
  "project_id" uuid not null,
  "action" text not null check ("action" in ('suspend', 'reinstate')),
  "reason" text null,
  "by" text not null check ("by" in ('automatic', 'operator')),
  "at" timestamptz not null);
create index "project_audit_at_index" on "project_audit" ("at" desc, "id" desc);

-- Emails to a project's owners, written with what they tell and sent after the commit (and retried by the
-- worker's sweep until they leave).
create table "reputation_notices" (
  "id" uuid primary key default gen_random_uuid(),
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "kind" text not null check ("kind" in ('warning', 'suspended', 'reinstated')),
  "reason" text null,
  "created_at" timestamptz not null default now(),
  "sent_at" timestamptz null);
create index "reputation_notices_unsent_index" on "reputation_notices" ("created_at") where "sent_at" is null;

create or replace function record_project_suspension() returns trigger language plpgsql as $fn$
declare
  actor text := coalesce(nullif(current_setting('postwire.actor', true), ''), 'operator');
  note text := nullif(current_setting('postwire.reason', true), '');
begin
  if new."disabled" and not old."disabled" then
    insert into "project_suspensions" ("project_id", "reason", "started_at", "by")
      values (new."id", new."disabled_reason", clock_timestamp(), actor);
    insert into "project_audit" ("project_id", "action", "reason", "by", "at")
      values (new."id", 'suspend', new."disabled_reason", actor, clock_timestamp());
    insert into "reputation_notices" ("project_id", "kind", "reason") values (new."id", 'suspended', new."disabled_reason");
  elsif old."disabled" and not new."disabled" then
    update "project_suspensions" set "ended_at" = clock_timestamp()
      where "project_id" = new."id" and "ended_at" is null;
    -- The emails the delivery pump held (due at 'infinity') are due again, each to be sent once.
    update "email_queue" set "due_at" = clock_timestamp() where "project_id" = new."id" and "due_at" = 'infinity';
    insert into "project_audit" ("project_id", "action", "reason", "by", "at")
      values (new."id", 'reinstate', note, actor, clock_timestamp());
    insert into "reputation_notices" ("project_id", "kind", "reason") values (new."id", 'reinstated', note);
  end if;
  return new;
end
$fn$;

create index "email_queue_held_index" on "email_queue" ("project_id") where "due_at" = 'infinity';
`);
  }
}
