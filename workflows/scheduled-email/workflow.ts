import {
  condition,
  defineSignal,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ScheduledEmailActivities } from '../../activities/scheduled-emails';
import { SendAtKey } from '../search-attributes';
import { WAKE_SIGNAL, type ScheduledEmailInput, type ScheduledEmailOutcome } from './ids';

// One short database statement: a local activity, retried with backoff for as long as the database is away.
const { releaseScheduledEmail } = proxyLocalActivities<ScheduledEmailActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '1 minute' },
});

export const wakeSignal = defineSignal<[string]>(WAKE_SIGNAL);

/** Only runs started with search attributes (not on the time-skipping test server) carry SendAt. */
function markSendAt(sendAt: string): void {
  if (workflowInfo().typedSearchAttributes.get(SendAtKey) !== undefined)
    upsertSearchAttributes([{ key: SendAtKey, value: new Date(sendAt) }]);
}

/**
 * One scheduled email (workflow ID `scheduled-email:<emailId>`, docs/sending.md "Scheduled sends"): a durable
 * timer until the email is due, then the email goes to the delivery queue. The email's row says when it is
 * due: a reschedule or a cancel changes the row and only wakes the run (`wake` signal, with the time to wake
 * at), which then asks the row whether it is due by the time it was woken for, so a signal that arrives, or
 * is lost, around a change can neither send an email early, nor late, nor twice.
 */
export async function scheduledEmail(input: ScheduledEmailInput): Promise<ScheduledEmailOutcome> {
  let dueAt = input.sendAt;
  let woken = false;
  setHandler(wakeSignal, (at) => {
    dueAt = at;
    woken = true;
  });
  let marked = input.sendAt;
  for (;;) {
    woken = false;
    const waitMs = Date.parse(dueAt) - Date.now();
    if (waitMs > 0) {
      if (dueAt !== marked) markSendAt((marked = dueAt));
      setCurrentDetails(`Waits until ${dueAt}`);
      if (await condition(() => woken, waitMs)) continue;
    }
    const result = await releaseScheduledEmail(input.emailId, dueAt);
    if (result.kind !== 'later') return result.kind;
    dueAt = result.sendAt;
  }
}
