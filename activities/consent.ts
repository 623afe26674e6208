import type { Deps } from '../src/deps';
import { expireConfirmation, remindConfirmation } from '../src/modules/consent/confirmation-steps';
import { endSnooze } from '../src/modules/consent/snooze-end';
import type { ReminderOutcome } from '../workflows/consent/ids';

/** The I/O of the consent workflows (docs/consent.md): each acts only on state still as the workflow expects, so a retry changes nothing. */
export const createConsentActivities = (deps: Deps) => ({
  async endContactSnooze(input: { contactId: string; until: string }): Promise<void> {
    await endSnooze(deps.orm.em.fork(), input.contactId, input.until);
  },
  async remindConfirmation(confirmationId: string): Promise<ReminderOutcome> {
    return { pending: await remindConfirmation(deps.orm.em.fork(), deps, confirmationId) };
  },
  async expireConfirmation(confirmationId: string): Promise<void> {
    await expireConfirmation(deps.orm.em.fork(), confirmationId);
  },
});

export type ConsentActivities = ReturnType<typeof createConsentActivities>;
