import type { Deps } from '../src/deps';
import { disableFailingEndpoint } from '../src/modules/webhooks/disable';
import { deliveryRound, ROUND_DEFAULTS } from '../src/modules/webhooks/round';
import type { DeliveryRound } from '../workflows/webhooks/ids';

export function createWebhookActivities(deps: Deps) {
  return {
    /** One round of an endpoint's delivery loop; a repeat after a crash sends again at most the deliveries not yet recorded. */
    async deliverWebhookRound(endpointId: string, options: { linger: boolean }): Promise<DeliveryRound> {
      return deliveryRound(deps, endpointId, options.linger ? ROUND_DEFAULTS : { ...ROUND_DEFAULTS, lingerMs: 0 });
    },
    /** Disables an endpoint that failed for 3 days and emails the owners; a repeat does nothing. */
    async disableWebhookEndpoint(endpointId: string, reason: string): Promise<void> {
      await disableFailingEndpoint(deps, endpointId, reason);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
