/**
 * How the dashboard writes numbers, rates and times, in one place so every page agrees: counts grouped in the
 * browser's locale, percentages with one decimal (75.0% beside 66.7%, never 66.67%), times in the browser's
 * time zone.
 */
const counts = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const percents = new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export const count = (n: number) => counts.format(n);
/** A big number short (12.3K) for figures in a tight place; the full count belongs in a title or table. */
export const shortCount = (n: number) => (Math.abs(n) < 10_000 ? counts.format(n) : compact.format(n));
/** A share from 0 to 1. */
export const percent = (share: number | null | undefined) => (share === null || share === undefined ? '—' : percents.format(share));
/** A rate the API gives in percent already (0 to 100), as campaign stats do. */
export const percentOf100 = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : percents.format(value / 100);
/** `n noun`, with the noun in the plural unless n is 1: "1 minute", "2 minutes", "1,204 contacts". */
export const plural = (n: number, noun: string, many = `${noun}s`) => `${count(n)} ${n === 1 ? noun : many}`;

export const dateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];
/** "3 minutes ago", "in 2 hours": for a time near now; `dateTime` gives the exact one (in a title). */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  let value = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return dateTime(iso);
}
