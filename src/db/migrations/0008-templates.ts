import { Migration } from '@mikro-orm/migrations';

export class Migration0008Templates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "templates" (
  "id" uuid primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null,
  "project_id" uuid not null references "projects" ("id") on delete cascade deferrable initially deferred,
  "name" varchar(255) not null,
  "description" text null,
  "subject" text not null,
  "body" text not null,
  "from_address" varchar(320) not null,
  "from_name" varchar(255) null,
  "reply_to" varchar(320) null,
  "type" text not null check ("type" in ('TRANSACTIONAL', 'MARKETING', 'HEADLESS')));
create index "templates_project_created_index" on "templates" ("project_id", "created_at" desc, "id" desc);
`);
  }
}
