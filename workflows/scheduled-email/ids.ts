/** Names and the contract of a scheduled email's workflow, shared by the workflow, its activity and the API. */

export const scheduledEmailWorkflowId = (emailId: string) => `scheduled-email:${emailId}`;

/** The run's static summary in the Web UI: "Email to ann@example.com, due 2026-12-01T09:00:00.000Z". */
export const scheduledEmailSummary = (to: string, sendAt: string) => `Email to ${to}, due ${sendAt}`;

/** Tells the run to look at the email again at `at` (ISO 8601; now when past): it was rescheduled or cancelled. */
export const WAKE_SIGNAL = 'wake';

export interface ScheduledEmailInput {
  emailId: string;
  /** ISO 8601: when the email is due, as it was when the run started. */
  sendAt: string;
}

/** What the release activity found. */
export type ReleaseResult =
  /** Handed to the delivery queue now. */
  | { kind: 'released' }
  /** Rescheduled to a later time: wait until then. */
  | { kind: 'later'; sendAt: string }
  /** No longer SCHEDULED (cancelled, or released by an earlier attempt), or deleted with its contact or project. */
  | { kind: 'settled' };

/** How a run ended. */
export type ScheduledEmailOutcome = 'released' | 'settled';
