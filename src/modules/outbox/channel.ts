/** The channel notified after a transaction that recorded events commits (src/db/commit-notifier.ts). */
export const OUTBOX_CHANNEL = 'events_outbox';

/** For the ORM's CommitNotifier: a flush that inserted events notifies the outbox. */
export const outboxNotifications = { Event: OUTBOX_CHANNEL };
