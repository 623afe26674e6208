import type { Deps } from '../../../deps';
import { automationTrigger } from '../../automations/trigger';
import type { EventConsumer } from '../../outbox/consumer';

/** The consumers every worker process hands events to; the automation engine adds its trigger here. */
export function eventConsumers(deps: Deps): EventConsumer[] {
  return [automationTrigger(deps)];
}
