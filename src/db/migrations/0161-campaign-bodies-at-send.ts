import { Migration } from '@mikro-orm/migrations';

/**
 * A campaign's emails are stored without their body: the pump renders each as it is sent
 * (src/modules/campaigns/bodies.ts), so the send no longer writes and the claim no longer reads some 4 kB per
 * recipient (docs/contributors/campaigns.md "Bodies rendered at send").
 */
export class Migration0161CampaignBodiesAtSend extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "emails" alter column "html" drop not null;`);
  }
}
