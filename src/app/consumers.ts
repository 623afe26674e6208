import type { Deps } from '../deps';
import { automationTrigger } from '../modules/automations/trigger';
import type { EventConsumer } from '../modules/outbox/consumer';

/** The consumers every worker process hands events to; the automation engine adds its trigger here. */
export function eventConsumers(deps: Deps): EventConsumer[] {
  return [automationTrigger(deps)];
}
