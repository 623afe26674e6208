/**
 * The delivery queue (migration 0032): one row per PENDING email, with what the pump writes while it sends
 * the email (its lease, attempts, due time, hand-over mark). The statement that records an email's outcome
 * deletes its row.
 */

/** A lane's place in the queue, from the email's source type: transactional mail first, then automations, then campaigns. */
export const QUEUE_PRIORITY = (sourceType: string) => `(case ${sourceType} when 'TRANSACTIONAL' then 0 when 'WORKFLOW' then 1 else 2 end)`;

/** The queue's priorities, in the order the pump claims them. */
export const PRIORITIES = [0, 1, 2];
