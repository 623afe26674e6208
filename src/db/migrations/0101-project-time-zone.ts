import { Migration } from '@mikro-orm/migrations';

/** The project's time zone (IANA), for local times of day in automations when the contact has none (docs/automations.md "Local times"). */
export class Migration0101ProjectTimeZone extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "time_zone" text not null default 'UTC';`);
  }
}
