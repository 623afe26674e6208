import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ConsentActivities } from '../../activities/consent';
import { SNOOZE_CHANGED_SIGNAL, type SnoozeEnd, type SnoozeInput } from './ids';

export const snoozeChangedSignal = defineSignal<[SnoozeEnd | null]>(SNOOZE_CHANGED_SIGNAL);

const { endContactSnooze } = proxyActivities<ConsentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '5 minutes' },
});

/**
 * A contact's snooze: a durable timer for its length, then the snooze ends by itself (the activity clears it
 * and records contact.unsnoozed). A new snooze moves the end; one ended early stops the timer.
 */
export async function contactSnooze(input: SnoozeInput): Promise<void> {
  let target: { until: string; deadline: number } | null = { until: input.until, deadline: Date.now() + input.ms };
  let changed = false;
  setHandler(snoozeChangedSignal, (next) => {
    target = next && { until: next.until, deadline: Date.now() + next.ms };
    changed = true;
  });
  while (target !== null) {
    changed = false;
    const { until, deadline } = target;
    const remaining = deadline - Date.now();
    if (remaining > 0 && (await condition(() => changed, remaining, { summary: `Resume marketing email at ${until}` }))) continue;
    if (changed) continue;
    await endContactSnooze({ contactId: input.contactId, until });
    return;
  }
}
