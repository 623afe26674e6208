/**
 * The delivery queue (migration 0032): one row per PENDING email, with what the pump writes while it sends
 * the email (its lease, attempts, due time, hand-over mark). The statement that records an email's outcome
 * deletes its row.
 */

/**
 * True for a queue row (alias `q`) that no worker holds: never leased, or its lease ran out. A lease runs until
 * `leased_until`, which no index names, so that leasing and renewing leave the row's index entries alone
 * (migration 0163); a row is claimable when it is due and free.
 */
export const FREE = (q: string) => `(${q}."leased_until" is null or ${q}."leased_until" <= clock_timestamp())`;

/** A lane's place in the queue, from the email's source type: transactional mail first, then automations, then campaigns. */
export const QUEUE_PRIORITY = (sourceType: string) => `(case ${sourceType} when 'TRANSACTIONAL' then 0 when 'WORKFLOW' then 1 else 2 end)`;

/** The queue's priorities, in the order the pump claims them. */
export const PRIORITIES = [0, 1, 2];
