/** The channel notified after a transaction that enqueued emails commits (src/db/commit-notifier.ts). */
export const DELIVERY_CHANNEL = 'email_delivery';
