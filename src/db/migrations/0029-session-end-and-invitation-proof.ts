import { Migration } from '@mikro-orm/migrations';

export class Migration0029SessionEndAndInvitationProof extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
-- Sessions ended by logout, until their token would have expired anyway; every cookie request checks it.
create table "ended_sessions" ("session_id" uuid primary key, "expires_at" timestamptz not null);
create index "ended_sessions_expires_at_index" on "ended_sessions" ("expires_at");

-- A membership made by invitation counts only once the user's address is verified (docs/roles.md).
alter table "project_members" add column "invited" boolean not null default false;
`);
  }
}
