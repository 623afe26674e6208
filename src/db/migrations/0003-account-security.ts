import { Migration } from '@mikro-orm/migrations';

export class Migration0003AccountSecurity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
-- Part of every session token; bumping it (password reset) ends all sessions issued before.
alter table "users" add column "session_version" integer not null default 0;

alter table "projects" add column "disabled_reason" text null;

-- History of the times a project was disabled, written by the trigger below whoever flips the flag
-- (an operator in SQL or the service), so GET .../security can list recent suspensions.
create table "project_suspensions" (
  "id" uuid primary key default gen_random_uuid(),
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "reason" text null,
  "started_at" timestamptz not null,
  "ended_at" timestamptz null);
create index "project_suspensions_project_index" on "project_suspensions" ("project_id", "started_at" desc);

create function record_project_suspension() returns trigger language plpgsql as $fn$
begin
  if new."disabled" and not old."disabled" then
    insert into "project_suspensions" ("project_id", "reason", "started_at")
      values (new."id", new."disabled_reason", clock_timestamp());
  elsif old."disabled" and not new."disabled" then
    update "project_suspensions" set "ended_at" = clock_timestamp()
      where "project_id" = new."id" and "ended_at" is null;
  end if;
  return new;
end
$fn$;

create trigger "projects_record_suspension" after update of "disabled" on "projects"
  for each row execute function record_project_suspension();
`);
  }
}
