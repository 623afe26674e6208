import type { Deps } from '../../../deps';
import type { EventConsumer } from './consumer';

/** The consumers every worker process hands events to; the automation engine adds its trigger here. */
export function eventConsumers(_deps: Deps): EventConsumer[] {
  return [];
}
