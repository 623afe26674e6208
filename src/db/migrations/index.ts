import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Foundation } from './0001-foundation';
import { Migration0002Audience } from './0002-audience';
import { Migration0003AccountSecurity } from './0003-account-security';
import { Migration0004EventsOutbox } from './0004-events-outbox';
import { Migration0005AudienceThroughput } from './0005-audience-throughput';
import { Migration0006Segments } from './0006-segments';
import { Migration0008Templates } from './0008-templates';
import { Migration0010Jobs } from './0010-jobs';
import { Migration0012Emails } from './0012-emails';
import { Migration0013EmailsNotifyAfterCommit } from './0013-emails-notify-after-commit';
import { Migration0015Campaigns } from './0015-campaigns';
import { Migration0016CampaignRecipientOrder } from './0016-campaign-recipient-order';
import { Migration0018Automations } from './0018-automations';
import { Migration0019AutomationGraphVersion } from './0019-automation-graph-version';
import { Migration0021Tracking } from './0021-tracking';
import { Migration0024ActivityRollups } from './0024-activity-rollups';
import { Migration0025RollupSlots } from './0025-rollup-slots';
import { Migration0026RollupSlotPerConnection } from './0026-rollup-slot-per-connection';
import { Migration0027ContactCountsSlotPerConnection } from './0027-contact-counts-slot-per-connection';
import { Migration0028EmailHandOver } from './0028-email-hand-over';
import { Migration0029FieldCatalog } from './0029-field-catalog';

/** Every migration, in order. Files are committed; the schema never changes at run time otherwise. */
export const migrationsList: MigrationObject[] = [
  { name: '0001-foundation', class: Migration0001Foundation },
  { name: '0002-audience', class: Migration0002Audience },
  { name: '0003-account-security', class: Migration0003AccountSecurity },
  { name: '0004-events-outbox', class: Migration0004EventsOutbox },
  { name: '0005-audience-throughput', class: Migration0005AudienceThroughput },
  { name: '0006-segments', class: Migration0006Segments },
  { name: '0008-templates', class: Migration0008Templates },
  { name: '0010-jobs', class: Migration0010Jobs },
  { name: '0012-emails', class: Migration0012Emails },
  { name: '0013-emails-notify-after-commit', class: Migration0013EmailsNotifyAfterCommit },
  { name: '0015-campaigns', class: Migration0015Campaigns },
  { name: '0016-campaign-recipient-order', class: Migration0016CampaignRecipientOrder },
  { name: '0018-automations', class: Migration0018Automations },
  { name: '0019-automation-graph-version', class: Migration0019AutomationGraphVersion },
  { name: '0021-tracking', class: Migration0021Tracking },
  { name: '0024-activity-rollups', class: Migration0024ActivityRollups },
  { name: '0025-rollup-slots', class: Migration0025RollupSlots },
  { name: '0026-rollup-slot-per-connection', class: Migration0026RollupSlotPerConnection },
  { name: '0027-contact-counts-slot-per-connection', class: Migration0027ContactCountsSlotPerConnection },
  { name: '0028-email-hand-over', class: Migration0028EmailHandOver },
  { name: '0029-field-catalog', class: Migration0029FieldCatalog },
];
