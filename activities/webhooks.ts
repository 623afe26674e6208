import { Context } from '@temporalio/activity';
import type { Deps } from '../src/deps';
import { disableFailingEndpoint } from '../src/modules/webhooks/disable';
import { deliveryRound, ROUND_DEFAULTS } from '../src/modules/webhooks/round';
import type { DeliveryRound } from '../workflows/webhooks/ids';

export function createWebhookActivities(deps: Deps) {
  return {
    /** One round of an endpoint's delivery loop; a repeat after a crash sends again at most the deliveries not yet recorded. */
    async deliverWebhookRound(endpointId: string, options: { linger: boolean }): Promise<DeliveryRound> {
      // A round on a worker that died is taken up again within the heartbeat timeout, not the start-to-close one.
      const context = Context.current();
      const beating = setInterval(() => context.heartbeat(), 1_000);
      try {
        return await deliveryRound(deps, endpointId, options.linger ? ROUND_DEFAULTS : { ...ROUND_DEFAULTS, lingerMs: 0 });
      } finally {
        clearInterval(beating);
      }
    },
    /** Disables an endpoint that failed for 3 days and emails the owners; a repeat does nothing. */
    async disableWebhookEndpoint(endpointId: string, reason: string): Promise<void> {
      await disableFailingEndpoint(deps, endpointId, reason);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
