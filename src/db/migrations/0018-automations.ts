import { Migration } from '@mikro-orm/migrations';

/**
 * Automations ("workflows" in the HTTP API, docs/automations.md): the definition (record, steps, transitions) and one row per contact
 * execution, which mirrors its Temporal workflow step by step.
 *
 * Re-entry (docs/automations.md "Starting") is enforced here, whatever the callers do: every execution carries the ordinal of
 * the contact's entry into the automation, unique per pair; an execution started while re-entry was off
 * must be entry 1, so once a contact has entered, it can never enter again; and a partial unique index
 * allows one active (RUNNING or WAITING) execution per pair at a time.
 */
export class Migration0018Automations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "automations" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "name" varchar(255) not null,
  "description" text null,
  "trigger_type" text not null check ("trigger_type" in ('EVENT', 'MANUAL')),
  "trigger_config" jsonb not null,
  "enabled" boolean not null default false,
  "allow_reentry" boolean not null default false,
  "webhook_secret" text not null,
  check ("trigger_type" <> 'EVENT' or coalesce("trigger_config" ->> 'eventName', '') <> ''));
create index "automations_project_created_index" on "automations" ("project_id", "created_at" desc, "id" desc);
-- What the events outbox consumer asks for every event: the enabled automations it triggers.
create index "automations_trigger_index" on "automations" ("project_id", ("trigger_config" ->> 'eventName'))
  where "enabled" and "trigger_type" = 'EVENT';

create table "automation_steps" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "automation_id" uuid not null references "automations" ("id") on delete cascade deferrable initially deferred,
  "type" text not null check ("type" in ('SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT')),
  "name" varchar(255) null,
  "config" jsonb not null);
create index "automation_steps_automation_index" on "automation_steps" ("automation_id", "created_at", "id");
-- Template usage (GET /templates/{id}/usage, and deleting a template in use).
create index "automation_steps_template_index" on "automation_steps" (("config" ->> 'templateId')) where "type" = 'SEND_EMAIL';

create table "automation_transitions" (
  "id" uuid primary key, "created_at" timestamptz not null,
  "automation_id" uuid not null references "automations" ("id") on delete cascade deferrable initially deferred,
  "from_step_id" uuid not null references "automation_steps" ("id") on delete cascade deferrable initially deferred,
  "to_step_id" uuid not null references "automation_steps" ("id") on delete cascade deferrable initially deferred,
  "branch" text null check ("branch" in ('yes', 'no')),
  "outcome" text null check ("outcome" in ('EVENT', 'TIMEOUT')),
  check ("from_step_id" <> "to_step_id"),
  constraint "automation_transitions_exit_unique" unique nulls not distinct ("from_step_id", "branch", "outcome"));
create index "automation_transitions_automation_index" on "automation_transitions" ("automation_id");
create index "automation_transitions_to_index" on "automation_transitions" ("to_step_id");

create table "automation_executions" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "automation_id" uuid not null references "automations" ("id") on delete cascade deferrable initially deferred,
  "contact_id" uuid not null references "contacts" ("id") on delete cascade deferrable initially deferred,
  "entry" integer not null check ("entry" >= 1),
  "reentry" boolean not null,
  "trigger_event_id" uuid null,
  "status" text not null check ("status" in ('RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED')),
  "current_step_id" uuid null,
  "step_started_at" timestamptz not null,
  "waiting_for" varchar(255) null,
  "context" jsonb not null,
  "definition" jsonb not null,
  "history" jsonb not null default '[]',
  "exit_reason" text null,
  "error" text null,
  "temporal_workflow_id" varchar(255) not null,
  "temporal_run_id" varchar(64) null,
  "seq" integer not null default 0,
  "completed_at" timestamptz null,
  check ("reentry" or "entry" = 1),
  constraint "automation_executions_entry_unique" unique ("automation_id", "contact_id", "entry"),
  constraint "automation_executions_trigger_unique" unique ("automation_id", "trigger_event_id"));
create unique index "automation_executions_active_unique" on "automation_executions" ("automation_id", "contact_id")
  where "status" in ('RUNNING', 'WAITING');
create index "automation_executions_list_index" on "automation_executions" ("automation_id", "created_at" desc, "id" desc);
create index "automation_executions_status_index" on "automation_executions" ("automation_id", "status", "created_at" desc, "id" desc);
-- The outbox consumer signals a contact's executions waiting for the event it hands off.
create index "automation_executions_waiting_index" on "automation_executions" ("contact_id", "waiting_for")
  where "status" = 'WAITING' and "waiting_for" is not null;
create index "automation_executions_contact_index" on "automation_executions" ("contact_id");
`);
  }
}
