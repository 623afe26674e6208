/**
 * The one rule of docs/suppressions.md: who may not be mailed. Every check of the platform (the delivery
 * pump when it takes an email, a campaign's audience when it is resolved) asks it here, in SQL or in code.
 */

export const SUPPRESSION_REASONS = ['BOUNCE', 'COMPLAINT', 'MANUAL'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * Whether the suppressions row `entry` holds back mail whose marketing flag (an SQL expression) is
 * `marketing`. Marketing mail goes to no suppressed address; transactional mail is held back by BOUNCE (the
 * mailbox is gone) and MANUAL (someone decided), and still goes to COMPLAINT entries: a password reset the
 * person asked for is not spam to them.
 */
const blocksSql = (entry: string, marketing: string): string => `(${marketing} or ${entry}."reason" <> 'COMPLAINT')`;

/**
 * The entry of the project's list that holds back mail to `address` (an SQL expression), as a lateral join
 * aliased `alias` with one column, `reason` (null when nothing holds it back): a probe of the primary key.
 */
export const suppressionJoin = (alias: string, projectId: string, address: string, marketing: string): string => `
left join lateral (select s."reason" from suppressions s
  where s."project_id" = ${projectId} and s."email" = lower(${address}) and ${blocksSql('s', marketing)}) ${alias} on true`;

/** Whether the project's list holds back mail to `address` (SQL), e.g. a campaign recipient's. */
export const suppressedSql = (projectId: string, address: string, marketing: string): string =>
  `exists (select 1 from suppressions s where s."project_id" = ${projectId} and s."email" = lower(${address}) and ${blocksSql('s', marketing)})`;
