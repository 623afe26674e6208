import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ConsentActivities } from '../../activities/consent';
import { CONFIRMATION_SETTLED_SIGNAL, CONFIRMATION_TTL_MS, REMINDER_AFTER_MS, type ConfirmationInput } from './ids';

export const confirmationSettledSignal = defineSignal<[]>(CONFIRMATION_SETTLED_SIGNAL);

const { remindConfirmation, expireConfirmation } = proxyActivities<ConsentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '5 minutes' },
});

/**
 * A pending double opt-in confirmation: one reminder a day after the signup, expiry a week after it. The
 * confirmation itself happens on the confirmation page, which then ends this workflow early; each activity
 * acts only on a confirmation still pending, so a late one does nothing.
 */
export async function contactConfirmation(input: ConfirmationInput): Promise<void> {
  let settled = false;
  setHandler(confirmationSettledSignal, () => {
    settled = true;
  });
  if (await condition(() => settled, REMINDER_AFTER_MS, { summary: 'Wait a day before the reminder' })) return;
  const { pending } = await remindConfirmation(input.confirmationId);
  if (!pending) return;
  if (
    await condition(() => settled, CONFIRMATION_TTL_MS - REMINDER_AFTER_MS, {
      summary: 'Wait until the link expires, a week after the signup',
    })
  ) {
    return;
  }
  await expireConfirmation(input.confirmationId);
}
