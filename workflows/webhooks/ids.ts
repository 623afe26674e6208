/** Names, timing and the contract of an endpoint's delivery workflow, shared by the workflow, its activities and the API. */

export const webhookEndpointWorkflowId = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export const webhookEndpointSummary = (url: string, projectId: string) => `Deliver webhooks to ${url} (project ${projectId})`;

export const WAKE_SIGNAL = 'wake';

export interface WebhookEndpointInput {
  endpointId: string;
  /** Workflow time (ms) of the first failure of the current failing streak, carried over continue-as-new. */
  failingSince?: number | null;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** After the n-th failed attempt of a delivery (docs/webhooks.md "Retries"): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 3 h. */
const BACKOFF_MS = [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR];
export const retryDelayMs = (failedAttempts: number): number => BACKOFF_MS[failedAttempts - 1] ?? 3 * HOUR;

/** An endpoint whose deliveries have failed for this long is disabled. */
export const GIVE_UP_AFTER_MS = 72 * HOUR;

/** How long an idle workflow waits for a wake signal before looking at the stream anyway. */
export const IDLE_RECHECK = '10 minutes';

/** Rounds of delivery per run, for runs started before the webhook-short-runs patch. */
export const ROUNDS_PER_RUN = 200;

/** What one round of delivery ended on. */
export type DeliveryRound =
  | { kind: 'gone' }
  | { kind: 'disabled' }
  /** Nothing pending; `delivered` counts this round's successes. */
  | { kind: 'idle'; delivered: number; lastDeliveredAt: string | null }
  /** Its time budget ran out with work left. */
  | { kind: 'busy'; delivered: number; backlog: number; lastDeliveredAt: string | null }
  /** The head of the queue failed its `attempts`-th attempt since the endpoint was last enabled; retried after `retryDelayMs(attempts)`. */
  | { kind: 'failed'; delivered: number; backlog: number; attempts: number; error: string; deliveryId: string };
