import { Migration } from '@mikro-orm/migrations';
import { trigger } from './0024-activity-rollups';

/**
 * docs/contacts.md "Limits": a project has at most 1,000 custom fields, and reading them must not scan its
 * contacts (docs/contacts.md "Field catalog").
 *
 * - `contact_fields_limit`: a statement that adds a project's 1,001st field fails with SQLSTATE PWF01, which
 *   the API answers as 422. The check takes a per-project advisory lock first, so two writers adding the
 *   last free fields at once cannot both pass; only statements that add a new field run it.
 * - `contact_field_counts`: how many contacts have each path of `data` set (a non-null value, objects
 *   included), kept by statement triggers on `contacts` and split in 32 slots by connection, as
 *   contact_counts is (migration 0027), so concurrent writers of one project rarely wait on one row.
 *   `GET /contacts/fields` reads its coverage from here instead of testing every contact for every field.
 */
const SLOT = 'pg_backend_pid() % 32';

// The paths of a contact's data with a non-null value, objects included, dotted as filters name them.
// PL/pgSQL: measured 8 times faster than the same walk as a recursive SQL function (15 µs for 10 keys).
const PATHS = `
create function "contact_data_paths"("d" jsonb) returns setof text language plpgsql immutable parallel safe as $fn$
declare
  "k" text;
  "v" jsonb;
begin
  if jsonb_typeof("d") <> 'object' then return; end if;
  for "k", "v" in select * from jsonb_each("d") loop
    if jsonb_typeof("v") <> 'null' then return next "k"; end if;
    if jsonb_typeof("v") = 'object' then
      return query select "k" || '.' || p from "contact_data_paths"("v") p;
    end if;
  end loop;
end
$fn$;`;

/** Adds `delta` rows (project_id, key, n) to the connection's slot; a project being deleted gets no row back. */
export const upsert = (delta: string) => `
insert into "contact_field_counts" ("project_id", "key", "slot", "n")
select d."project_id", d."key", ${SLOT}, d."n" from (${delta}) d
where d."n" <> 0 and exists (select 1 from "projects" p where p."id" = d."project_id")
order by 1, 2
on conflict ("project_id", "key", "slot") do update set "n" = "contact_field_counts"."n" + excluded."n"`;

const INSERTED = upsert(`
  select c."project_id", k."key", count(*) as "n" from "new_rows" c cross join lateral "contact_data_paths"(c."data") k("key")
  group by 1, 2`);

// A path's count changes by the rows that have it now less the rows that had it; rows whose data did not
// change are skipped, and a path a row keeps cancels out.
const UPDATED = upsert(`
  select d."project_id", d."key", sum(d."sign") as "n" from (
    select n."project_id", k."key", 1 as "sign" from "new_rows" n join "old_rows" o on o."id" = n."id"
    cross join lateral "contact_data_paths"(n."data") k("key") where n."data" <> o."data"
    union all
    select o."project_id", k."key", -1 from "old_rows" o join "new_rows" n on n."id" = o."id"
    cross join lateral "contact_data_paths"(o."data") k("key") where n."data" <> o."data") d
  group by 1, 2`);

// Deletions take their counts from the key's lowest existing slot, so they never add rows.
const DELETED = `
update "contact_field_counts" s set "n" = s."n" - d."n"
from (select c."project_id", k."key", count(*) as "n" from "old_rows" c cross join lateral "contact_data_paths"(c."data") k("key") group by 1, 2) d
where s."project_id" = d."project_id" and s."key" = d."key"
  and s."slot" = (select min(x."slot") from "contact_field_counts" x where x."project_id" = d."project_id" and x."key" = d."key")`;

const LIMIT = `
create function "contact_fields_limit"() returns trigger language plpgsql as $fn$
declare
  "project" uuid;
begin
  for "project" in select distinct "project_id" from "new_rows" order by 1 loop
    perform pg_advisory_xact_lock(hashtextextended('contact_fields:' || "project"::text, 0));
    if (select count(*) from "contact_fields" f where f."project_id" = "project") > 1000 then
      raise exception 'A project has at most 1000 custom fields' using errcode = 'PWF01';
    end if;
  end loop;
  return null;
end
$fn$;`;

export class Migration0030FieldCatalog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
-- The longest path the limits allow: 5 keys of 100 characters and their dots.
alter table "contact_fields" alter column "key" type varchar(504);

${LIMIT}
create trigger "contact_fields_limit" after insert on "contact_fields" referencing new table as "new_rows"
  for each statement execute function "contact_fields_limit"();

${PATHS}

create table "contact_field_counts" (
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "key" text not null,
  "slot" smallint not null,
  "n" bigint not null,
  primary key ("project_id", "key", "slot"));

insert into "contact_field_counts" ("project_id", "key", "slot", "n")
select c."project_id", k."key", 0, count(*) from "contacts" c cross join lateral "contact_data_paths"(c."data") k("key") group by 1, 2;

${trigger('contact_field_counts_insert', INSERTED)}
${trigger('contact_field_counts_update', UPDATED)}
${trigger('contact_field_counts_delete', DELETED)}
create trigger "contact_field_counts_insert" after insert on "contacts" referencing new table as "new_rows"
  for each statement execute function "contact_field_counts_insert"();
create trigger "contact_field_counts_update" after update on "contacts" referencing new table as "new_rows" old table as "old_rows"
  for each statement execute function "contact_field_counts_update"();
create trigger "contact_field_counts_delete" after delete on "contacts" referencing old table as "old_rows"
  for each statement execute function "contact_field_counts_delete"();
`);
  }
}
