/**
 * A timestamptz expression as the API writes instants (`2026-11-28T16:00:11.009Z`, what `toISOString` gives),
 * for statements that build JSON or answers in SQL: the same instant then reads the same wherever it appears.
 */
export const isoSql = (expression: string) => `to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
