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
  /**
   * Takes a claimed batch at once (a consumer whose every event asks the database the same question asks it
   * once): handles one contact's events in the order given, and answers the events it could not take with
   * why; those are retried. Without it the dispatcher calls `handle` per event, one contact's in order.
   */
  handleBatch?(events: readonly OutboxEvent[], signal: AbortSignal): Promise<Map<string, string>>;
}

/** One contact's events in order, different contacts' concurrently; `take` throws for an event it could not take. */
export async function byContact(events: readonly OutboxEvent[], take: (event: OutboxEvent) => Promise<void>): Promise<Map<string, string>> {
  const contacts = new Map<string, OutboxEvent[]>();
  for (const e of events) contacts.set(e.contactId, [...(contacts.get(e.contactId) ?? []), e]);
  const failures = new Map<string, string>();
  await Promise.all(
    [...contacts.values()].map(async (list) => {
      for (const event of list) {
        try {
          await take(event);
        } catch (err) {
          failures.set(event.id, err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  return failures;
}
