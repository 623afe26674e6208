/** An event as the outbox hands it on, once its transaction has committed. */
export interface OutboxEvent {
  id: string;
  projectId: string;
  contactId: string;
  name: string;
  data: Record<string, unknown>;
  createdAt: Date;
  /** Earlier hand-offs of this event that failed. */
  attempts: number;
}

/**
 * Where events go after they are recorded; the automation engine starts and signals its Temporal workflows
 * from one. Delivery is at least once and only roughly in order (an event can come again after a failure
 * or a crash, and a retried event can follow newer ones), so `handle` must be idempotent, e.g. by deriving
 * Temporal workflow IDs or signal deduplication from the event id. Throwing schedules a retry with backoff.
 */
export interface EventConsumer {
  /** For logs. */
  name: string;
  /** `signal` aborts when the hand-off times out; pass it on (e.g. `client.withAbortSignal`) so nothing lingers. */
  handle(event: OutboxEvent, signal: AbortSignal): Promise<void>;
}
