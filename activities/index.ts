import type { Deps } from '../src/deps';
import { createAutomationActivities } from './automation';
import { createCampaignActivities } from './campaigns';
import { createDomainActivities } from './domains';
import { createJobActivities } from './jobs';
import { createSegmentActivities } from './segments';
import { createScheduledEmailActivities } from './scheduled-emails';
import { createWebhookActivities } from './webhooks';

/** Every activity the worker runs, built from the process's dependencies. */
export function createActivities(deps: Deps) {
  return {
    ...createDomainActivities(deps),
    ...createSegmentActivities(deps),
    ...createJobActivities(deps),
    ...createCampaignActivities(deps),
    ...createAutomationActivities(deps),
    ...createWebhookActivities(deps),
    ...createScheduledEmailActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
