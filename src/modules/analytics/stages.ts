/** The stages of an email that email_stats counts (migration 0024), as analytics names them. */
export const STAGES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type Stage = (typeof STAGES)[number];
export type StageCounts = Record<Stage, number>;

/** Rates in percent of `sent`, two decimals (docs/analytics.md "Stages"); 0 when nothing was sent. */
export const RATES = {
  openRate: 'opened',
  clickRate: 'clicked',
  bounceRate: 'bounced',
  deliveryRate: 'delivered',
  complaintRate: 'complained',
} as const;
export type RateName = keyof typeof RATES;

/** The select list summing each stage of email_stats rows aliased `alias`. */
export const stageSums = (alias: string) => STAGES.map((s) => `coalesce(sum(${alias}."${s}"), 0)::float8 as "${s}"`).join(', ');

/** The SQL of a rate over stage columns already summed under their own names. */
export const rateSql = (rate: RateName) => `coalesce(round((100 * "${RATES[rate]}" / nullif("sent", 0))::numeric, 2), 0)`;

export const stageCountsOf = (row: Record<string, unknown>): StageCounts =>
  Object.fromEntries(STAGES.map((s) => [s, Number(row[s] ?? 0)])) as StageCounts;

export function ratesOf(counts: StageCounts): Record<RateName, number> {
  const rate = (part: number) => (counts.sent === 0 ? 0 : Math.round((part / counts.sent) * 10_000) / 100);
  return Object.fromEntries(Object.entries(RATES).map(([name, stage]) => [name, rate(counts[stage])])) as Record<RateName, number>;
}
