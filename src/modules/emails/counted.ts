/**
 * Whether an email_stats row (aliased `alias`) counts in figures: mail to the sandbox's simulator domain only
 * when the deployment sets REPUTATION_COUNT_SIMULATED (docs/security.md "Simulated mail"); reputation,
 * analytics and billing all read the rollup through it. Binds one `?`: that setting.
 */
export const countedRows = (alias: string) => `(not ${alias}."simulated" or ?::boolean)`;
