import type { Deps } from '../deps';
import { automationTrigger } from '../modules/automations/trigger';
import type { EventConsumer } from '../modules/outbox/consumer';
import { webhookWake } from '../modules/webhooks/consumer';

/** The consumers every worker process hands events to: the automation engine's trigger, the webhook endpoints' wake. */
export function eventConsumers(deps: Deps): EventConsumer[] {
  return [automationTrigger(deps), webhookWake(deps)];
}
