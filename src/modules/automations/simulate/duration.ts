import { delayMs, type DelayUnit } from '../../../../workflows/automation/definition';

/** Offsets of a simulation: `"<n> minutes|hours|days"` in requests, as DELAY units; ISO 8601 durations in answers. */

export const OFFSET_PATTERN = /^(\d{1,6}) (minute|hour|day)s?$/;

/** docs/simulation.md: a simulation covers at most 400 days. */
export const MAX_SIMULATED_MS = delayMs({ amount: 400, unit: 'days' });

/** Milliseconds of an offset the schema accepted. */
export function offsetMs(offset: string): number {
  const match = OFFSET_PATTERN.exec(offset);
  if (!match) return Number.NaN;
  return delayMs({ amount: Number(match[1]), unit: `${match[2]}s` as DelayUnit });
}

/** `P30DT2H5M`, to the whole second (a simulation's clock has no finer meaning). */
export function isoDuration(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3_600);
  seconds -= hours * 3_600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (!days && !time) return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}
