import { Migration } from '@mikro-orm/migrations';

export class Migration0001Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "users" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "email" varchar(255) not null constraint "users_email_unique" unique,
  "password_hash" varchar(255) null, "email_verified" boolean not null default false);

create table "user_tokens" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "user_id" uuid not null references "users" ("id") on delete cascade deferrable initially deferred,
  "purpose" text not null check ("purpose" in ('VERIFY_EMAIL', 'RESET_PASSWORD')),
  "token_digest" varchar(255) not null constraint "user_tokens_token_digest_unique" unique,
  "expires_at" timestamptz not null, "used_at" timestamptz null);
create index "user_tokens_user_id_index" on "user_tokens" ("user_id");

create table "projects" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "name" varchar(255) not null,
  "public_key" varchar(255) not null constraint "projects_public_key_unique" unique,
  "public_key_digest" varchar(255) not null constraint "projects_public_key_digest_unique" unique,
  "secret_key_digest" varchar(255) not null constraint "projects_secret_key_digest_unique" unique,
  "secret_key_hint" varchar(255) not null,
  "disabled" boolean not null default false,
  "billing_limits" jsonb not null default '{}');

create table "project_members" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "user_id" uuid not null references "users" ("id") on delete cascade deferrable initially deferred,
  "role" text not null check ("role" in ('OWNER', 'ADMIN', 'MEMBER')),
  constraint "project_members_project_id_user_id_unique" unique ("project_id", "user_id"));
create index "project_members_user_id_index" on "project_members" ("user_id");

create table "domains" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "domain" varchar(255) not null, "selector" varchar(255) not null,
  "dkim_public_key" text not null, "dkim_private_key_encrypted" text not null,
  "verified" boolean not null default false, "verified_at" timestamptz null, "last_checked_at" timestamptz null,
  "records" jsonb not null,
  constraint "domains_project_id_domain_unique" unique ("project_id", "domain"));
create index "domains_project_id_index" on "domains" ("project_id");

-- Fixed-window and token-bucket counters shared by every API process. Unlogged: losing them on a crash only resets limits.
create unlogged table "rate_limit_counters" (
  "key" text primary key, "tokens" double precision not null, "updated_at" timestamptz not null,
  "expires_at" timestamptz not null);
create index "rate_limit_counters_expires_at_index" on "rate_limit_counters" ("expires_at");

-- Takes one token from a bucket refilled at p_rate per second up to p_burst, atomically across processes.
create function rate_limit_take(p_key text, p_rate double precision, p_burst double precision)
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
  if allowed then cur := cur - 1; end if;
  update rate_limit_counters set "tokens" = cur, "updated_at" = now_ts, "expires_at" = now_ts + interval '1 hour'
    where "key" = p_key;
  remaining := cur;
  reset_seconds := case when cur >= 1 then 0 else (1 - cur) / p_rate end;
  return next;
end
$fn$;
`);
  }
}
