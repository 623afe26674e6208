/** The ranges the analytics page offers: how far back from now, and the bucket that suits it. */
export const PERIODS = [
  { value: '24h', label: 'Last 24 hours', hours: 24, interval: 'hour' },
  { value: '7d', label: 'Last 7 days', hours: 7 * 24, interval: 'day' },
  { value: '30d', label: 'Last 30 days', hours: 30 * 24, interval: 'day' },
  { value: '90d', label: 'Last 90 days', hours: 90 * 24, interval: 'day' },
  { value: '365d', label: 'Last 12 months', hours: 365 * 24, interval: 'day' },
] as const;

export type PeriodName = (typeof PERIODS)[number]['value'];
export type Period = (typeof PERIODS)[number];

export const periodOf = (name: string | null): Period => PERIODS.find((p) => p.value === name) ?? PERIODS[2];

/** `from` of the period ending now; the API widens it to whole UTC buckets (docs/analytics.md). */
export const fromOf = (period: Period) => new Date(Date.now() - period.hours * 3_600_000).toISOString();
