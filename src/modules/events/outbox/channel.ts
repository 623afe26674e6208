/** The channel notified after a transaction that recorded events commits (src/db/commit-notifier.ts). */
export const OUTBOX_CHANNEL = 'events_outbox';
