import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ConsentActivities } from '../../activities/consent';
import { SNOOZE_CHANGED_SIGNAL, type SnoozeInput } from './ids';

export const snoozeChangedSignal = defineSignal<[string | null]>(SNOOZE_CHANGED_SIGNAL);

const { endContactSnooze } = proxyActivities<ConsentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '5 minutes' },
});

/**
 * A contact's snooze: a durable timer until `until`, then the snooze ends by itself (the activity clears it
 * and records contact.unsnoozed). A new snooze moves the end; one ended early stops the timer.
 */
export async function contactSnooze(input: SnoozeInput): Promise<void> {
  let until: string | null = input.until;
  let changed = false;
  setHandler(snoozeChangedSignal, (next) => {
    until = next;
    changed = true;
  });
  while (until !== null) {
    changed = false;
    const remaining = Date.parse(until) - Date.now();
    if (remaining > 0 && (await condition(() => changed, remaining, { summary: `Resume marketing email at ${until}` }))) continue;
    if (changed) continue;
    await endContactSnooze({ contactId: input.contactId, until });
    return;
  }
}
