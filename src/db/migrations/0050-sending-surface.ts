import { Migration } from '@mikro-orm/migrations';
import { insertedEmails, trigger, updatedEmails, upsertEmailDeltas, type RollupShape } from './0024-activity-rollups';
import { CONNECTION_SLOT, connectionSlotDelete } from './0026-rollup-slot-per-connection';
import { SHAPE_0040 } from './0040-reputation-guardrails';

/** The rollup as 0040 shaped it, with the emails that never left besides FAILED unbilled (docs/billing.md). */
export const SHAPE_0050: RollupShape = { ...SHAPE_0040, unbilled: ['FAILED', 'CANCELLED', 'SUPPRESSED'] };

/**
 * Contacts suppressed until now: a permanent bounce or a complaint that no subscription came after. A bounce
 * outranks a complaint (it also stops transactional mail). Exported for test/suppressions, which runs it.
 */
export const SUPPRESSIONS_FROM_EVENTS = `
insert into "suppressions" ("project_id", "email", "reason", "email_id", "created_at")
select distinct on (c."project_id", lower(c."email")) c."project_id", lower(c."email"),
  case when b."name" = 'email.bounce' then 'BOUNCE' else 'COMPLAINT' end,
  case when b."data" ->> 'emailId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (b."data" ->> 'emailId')::uuid end,
  b."created_at"
from "events" b join "contacts" c on c."id" = b."contact_id"
where (b."name" = 'email.complaint' or (b."name" = 'email.bounce' and b."data" ->> 'bounceType' = 'Permanent'))
  and not exists (select 1 from "events" s where s."contact_id" = b."contact_id" and s."name" = 'contact.subscribed' and s."created_at" > b."created_at")
order by c."project_id", lower(c."email"), b."name" = 'email.bounce' desc, b."created_at" desc
on conflict do nothing`;

const STATUSES = [
  'SCHEDULED',
  'PENDING',
  'SENT',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'BOUNCED',
  'COMPLAINED',
  'FAILED',
  'CANCELLED',
  'SUPPRESSED',
];

/**
 * The sending surface of docs/sending.md and the suppression list of docs/suppressions.md.
 *
 * Emails gain cc and bcc (jsonb arrays of `{email, name}`: one SMTP transaction to all), tags, a
 * `scheduled_at` and the statuses SCHEDULED (waiting on a Temporal timer, no queue row yet), CANCELLED and
 * SUPPRESSED; billing leaves out the last two, like FAILED. Templates and campaigns gain `text`, campaigns
 * `tags`. Events carrying tags are indexed by them for `GET /activity?tag=`.
 *
 * The suppression list is what the platform already knew as a contact's state (a permanent bounce or a
 * complaint that no subscription came after), now rows of their own, keyed by the lowercased address.
 *
 * The send token bucket takes a cost, so that a batch counts each of its emails.
 */
export class Migration0050SendingSurface extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "emails"
  add column "cc" jsonb not null default '[]',
  add column "bcc" jsonb not null default '[]',
  add column "tags" jsonb not null default '{}',
  add column "scheduled_at" timestamptz null;
alter table "emails" drop constraint "emails_status_check";
alter table "emails" add constraint "emails_status_check" check ("status" in (${STATUSES.map((s) => `'${s}'`).join(', ')}));
-- What GET /activity/upcoming lists.
create index "emails_scheduled_index" on "emails" ("project_id", "scheduled_at", "id") where "status" = 'SCHEDULED';

alter table "templates" add column "text" text null;
alter table "campaigns" add column "text" text null, add column "tags" jsonb not null default '{}';

-- Only events that carry tags (email.* events of tagged emails) are in it.
create index "events_tags_index" on "events" using gin (("data" -> 'tags') jsonb_path_ops) where "data" ? 'tags';

create table "suppressions" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  -- Lowercased: addresses match case-insensitively.
  "email" varchar(320) not null,
  -- The list's cursor breaks ties of created_at with it.
  "id" uuid not null default gen_random_uuid(),
  "reason" text not null check ("reason" in ('BOUNCE', 'COMPLAINT', 'MANUAL')),
  -- The email that caused it; no foreign key, so that the entry outlives the email (deleted with its contact).
  "email_id" uuid null,
  "created_at" timestamptz not null,
  primary key ("project_id", "email"));
create index "suppressions_project_created_index" on "suppressions" ("project_id", "created_at" desc, "id" desc);

${SUPPRESSIONS_FROM_EVENTS};

-- No email is CANCELLED or SUPPRESSED yet: the counts stand, only the triggers change.
${trigger('email_stats_insert', upsertEmailDeltas(insertedEmails(CONNECTION_SLOT, SHAPE_0050), CONNECTION_SLOT, SHAPE_0050), true)}
${trigger('email_stats_update', upsertEmailDeltas(updatedEmails(CONNECTION_SLOT, SHAPE_0050), CONNECTION_SLOT, SHAPE_0050), true)}
${trigger('email_stats_delete', connectionSlotDelete(SHAPE_0050), true)}

-- A cost of several tokens (a batch of emails): a request passes when the bucket holds a token, as before,
-- and takes its cost, going into debt if need be; later requests wait for the debt to refill. So a batch
-- larger than the burst is possible, and over time each email counts.
drop function rate_limit_take(text, double precision, double precision);
create function rate_limit_take(p_key text, p_rate double precision, p_burst double precision, p_cost double precision default 1)
returns table(allowed boolean, remaining double precision, reset_seconds double precision)
language plpgsql as $fn$
declare
  now_ts timestamptz := clock_timestamp();
  cur double precision;
  last timestamptz;
begin
  insert into rate_limit_counters ("key", "tokens", "updated_at", "expires_at")
    values (p_key, p_burst, now_ts, now_ts + interval '1 hour') on conflict ("key") do nothing;
  select "tokens", "updated_at" into cur, last from rate_limit_counters where "key" = p_key for update;
  cur := least(p_burst, cur + greatest(0, extract(epoch from (now_ts - last))) * p_rate);
  allowed := cur >= 1;
  if allowed then cur := cur - p_cost; end if;
  update rate_limit_counters set "tokens" = cur, "updated_at" = now_ts, "expires_at" = now_ts + interval '1 hour'
    where "key" = p_key;
  remaining := greatest(0, cur);
  reset_seconds := case when cur >= 1 then 0 else (1 - cur) / p_rate end;
  return next;
end
$fn$;
`);
  }
}
