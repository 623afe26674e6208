import type { Deps } from '../src/deps';
import { createAutomationActivities } from './automation';
import { createCampaignActivities } from './campaigns';
import { createDomainActivities } from './domains';
import { createJobActivities } from './jobs';
import { createSegmentActivities } from './segments';
import { createScheduledEmailActivities } from './scheduled-emails';
import { createWebhookActivities } from './webhooks';
import { createConsentActivities } from './consent';

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
    ...createConsentActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
