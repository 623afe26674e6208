/** Names, timing and contracts of the consent workflows (docs/consent.md), shared by the workflows, their activities and the API. */

/** One snooze per contact: a new snooze of a snoozed contact moves its end instead of starting another. */
export const snoozeWorkflowId = (contactId: string) => `snooze:${contactId}`;
export const snoozeSummary = (contactId: string, projectId: string) =>
  `Snooze marketing email of contact ${contactId} (project ${projectId})`;

/**
 * When a snooze ends: `until` as the API recorded it (what the end clears), and `ms`, its length from when it
 * was recorded, which the timer counts on Temporal's clock (it need not agree with the API's).
 */
export interface SnoozeEnd {
  until: string;
  ms: number;
}

export interface SnoozeInput extends SnoozeEnd {
  projectId: string;
  contactId: string;
}

/** A new end of the snooze (SnoozeEnd), or null when it was ended early (the API has already recorded it). */
export const SNOOZE_CHANGED_SIGNAL = 'snoozeChanged';

/** One workflow per pending double opt-in confirmation. */
export const confirmationWorkflowId = (confirmationId: string) => `confirmation:${confirmationId}`;
export const confirmationSummary = (contactId: string, projectId: string) =>
  `Double opt-in confirmation of contact ${contactId} (project ${projectId})`;

export interface ConfirmationInput {
  confirmationId: string;
}

/** The contact confirmed: nothing is left to remind of or expire. */
export const CONFIRMATION_SETTLED_SIGNAL = 'confirmationSettled';

const HOUR = 3_600_000;
/** One reminder, a day after the signup, if the link was not followed by then. */
export const REMINDER_AFTER_MS = 24 * HOUR;
/** The link stops working a week after the signup. */
export const CONFIRMATION_TTL_MS = 7 * 24 * HOUR;
/** A second signup sends the link again at most once an hour. */
export const RESEND_AFTER_MS = HOUR;

/** What the reminder found: whether the confirmation is still waiting (else the workflow ends). */
export interface ReminderOutcome {
  pending: boolean;
}
