import { Migration } from '@mikro-orm/migrations';

/** The counter slot of a contact: the last byte of a UUID v4 is random, so writers spread over the slots. */
const SLOT = (alias: string) => `get_byte(uuid_send(${alias}."id"), 15) % 32`;

/**
 * Adds `sign`-weighted rows of `source` (project_id, subscribed, id, sign) to contact_counts. Rows are locked
 * in key order, so concurrent statements cannot deadlock on them; a project that is being deleted gets no
 * row back (its foreign key would fail the deletion at commit).
 */
export const applyCounts = (source: string, slot: (alias: string) => string = SLOT) => `
insert into "contact_counts" ("project_id", "subscribed", "slot", "n")
select s."project_id", s."subscribed", ${slot('s')}, sum(s."sign") from (${source}) s
where exists (select 1 from "projects" p where p."id" = s."project_id")
group by 1, 2, 3 having sum(s."sign") <> 0 order by 1, 2, 3
on conflict ("project_id", "subscribed", "slot") do update set "n" = "contact_counts"."n" + excluded."n"`;

/** The contacts a statement counts in (+1) or out (-1), for applyCounts. */
export const INSERTED = `select "project_id", "subscribed", "id", 1 as "sign" from "new_rows"`;
export const DELETED = `select "project_id", "subscribed", "id", -1 as "sign" from "old_rows"`;
export const FLIPPED = `
  select n."project_id", n."subscribed", n."id", 1 as "sign" from "new_rows" n join "old_rows" o on o."id" = n."id"
  where n."subscribed" <> o."subscribed"
  union all
  select o."project_id", o."subscribed", o."id", -1 from "new_rows" n join "old_rows" o on o."id" = n."id"
  where n."subscribed" <> o."subscribed"`;

const trigger = (name: string, body: string) => `
create function "${name}"() returns trigger language plpgsql as $fn$
begin
${body};
  return null;
end
$fn$;`;

/**
 * What /v1/track and GET /contacts need at volume (docs/contacts.md):
 * - No NOTIFY in the events insert trigger of 0004: PostgreSQL serialises the commits of transactions that
 *   NOTIFY, so the application notifies after the commit instead (src/db/commit-notifier.ts).
 * - Contacts counted per project and subscription state, so that the `total` of a list without a search is
 *   a sum of a few rows instead of a count over a million. The count is split into 32 slots by contact id,
 *   so concurrent writers of one project rarely wait on the same row.
 * - The email search index keyed by project first, so a search reads only its own project's entries.
 */
export class Migration0005AudienceThroughput extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
drop trigger if exists "events_outbox_notify" on "events";
drop function if exists "events_outbox_notify"();

create extension if not exists btree_gin;
create index "contacts_project_email_trgm_index" on "contacts" using gin ("project_id", "email" gin_trgm_ops);
drop index "contacts_email_trgm_index";

create table "contact_counts" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "subscribed" boolean not null,
  "slot" smallint not null,
  "n" bigint not null,
  primary key ("project_id", "subscribed", "slot"));

insert into "contact_counts" ("project_id", "subscribed", "slot", "n")
select c."project_id", c."subscribed", ${SLOT('c')}, count(*) from "contacts" c group by 1, 2, 3;

${trigger('contact_counts_insert', applyCounts(INSERTED))}
${trigger('contact_counts_delete', applyCounts(DELETED))}
${trigger('contact_counts_update', applyCounts(FLIPPED))}
create trigger "contact_counts_insert" after insert on "contacts" referencing new table as "new_rows"
  for each statement execute function "contact_counts_insert"();
create trigger "contact_counts_delete" after delete on "contacts" referencing old table as "old_rows"
  for each statement execute function "contact_counts_delete"();
create trigger "contact_counts_update" after update on "contacts" referencing new table as "new_rows" old table as "old_rows"
  for each statement execute function "contact_counts_update"();
`);
  }
}
