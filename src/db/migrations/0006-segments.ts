import { Migration } from '@mikro-orm/migrations';

/**
 * Reading custom fields by their inferred type, for filters compiled to SQL: each function returns NULL when
 * the stored JSON value does not read as the type, by the same rules as src/modules/filters/values.ts (which
 * the in-memory face uses; test/filters proves the two agree). And an index to walk a project's contacts
 * in id order, as segment computation does.
 */
export class Migration0006Segments extends Migration {
  override async up(): Promise<void> {
    this.addSql(String.raw`
create function pw_jsonb_text(v jsonb) returns text language sql immutable parallel safe as $fn$
  select case when jsonb_typeof(v) = 'string' then v #>> '{}' end
$fn$;

create function pw_jsonb_number(v jsonb) returns numeric language sql immutable parallel safe as $fn$
  select case jsonb_typeof(v)
    when 'number' then (v #>> '{}')::numeric
    when 'string' then case when (v #>> '{}') ~ '^-?(\d+(\.\d*)?|\.\d+)$' then (v #>> '{}')::numeric end
  end
$fn$;

create function pw_jsonb_boolean(v jsonb) returns boolean language sql immutable parallel safe as $fn$
  select case jsonb_typeof(v)
    when 'boolean' then (v #>> '{}')::boolean
    when 'string' then case v #>> '{}' when 'true' then true when 'false' then false end
  end
$fn$;

-- Nested CASEs fix the order of the checks: an impossible day (2024-02-30) reads as NULL instead of failing.
create function pw_jsonb_timestamp(v jsonb) returns timestamptz language sql immutable parallel safe as $fn$
  select case when jsonb_typeof(v) = 'string'
      and (v #>> '{}') ~ '^[1-9]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?Z)?$'
    then case when substr(v #>> '{}', 9, 2)::int <= extract(day from
        make_date(substr(v #>> '{}', 1, 4)::int, substr(v #>> '{}', 6, 2)::int, 1) + interval '1 month - 1 day')
      then (v #>> '{}')::timestamp at time zone 'UTC' end
  end
$fn$;

create index "contacts_project_id_index" on "contacts" ("project_id", "id");
`);
  }
}
