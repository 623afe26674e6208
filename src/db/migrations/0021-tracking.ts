import { Migration } from '@mikro-orm/migrations';

/** Open and click tracking (docs/tracking.md): which emails of a project carry the pixel and click redirects. */
export class Migration0021Tracking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "projects" add column "tracking_mode" text not null default 'ENABLED'
  check ("tracking_mode" in ('ENABLED', 'DISABLED', 'MARKETING_ONLY'));
`);
  }
}
