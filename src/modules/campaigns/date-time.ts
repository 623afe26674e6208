/**
 * The platform's date parser for instants given by people and integrations (a campaign's `scheduledFor`).
 * It accepts, and reads the same on every server whatever its time zone:
 * - ISO 8601 / RFC 3339: `2026-05-01T09:30:00Z`, `2026-05-01T09:30:00.123+02:00`, `2026-05-01 09:30`,
 *   offsets `Z`, `±HH:MM`, `±HHMM` or `±HH`; without an offset the time is UTC; a bare date is midnight UTC;
 * - RFC 2822 / HTTP dates: `Fri, 01 May 2026 09:30:00 GMT`, `1 May 2026 09:30 +0200`;
 * - a number: milliseconds since the Unix epoch (JavaScript's `Date.now()`).
 * Anything else, and impossible dates (2026-02-30, 24:00), read as null. See docs/campaigns.md.
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const RFC2822 =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun),?\s+)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+(gmt|ut|utc|z|[+-]\d{4})$/i;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Minutes east of UTC. */
  offset: number;
}

/** `+02:00`, `-0530`, `+02`, `Z`, `GMT` → minutes east of UTC; null when out of range. */
function offsetMinutes(zone: string | undefined): number | null {
  if (!zone || /^(z|gmt|ut|utc)$/i.test(zone)) return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** The instant, or null when a part is out of range or the day does not exist in that month. */
function instant(p: Parts): Date | null {
  if (p.month < 1 || p.month > 12 || p.hour > 23 || p.minute > 59 || p.second > 59) return null;
  const local = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.ms);
  if (new Date(local).getUTCDate() !== p.day) return null;
  return new Date(local - p.offset * 60_000);
}

function fromIso(text: string): Date | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const offset = offsetMinutes(m[8]);
  if (offset === null) return null;
  return instant({
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    ms: m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0,
    offset,
  });
}

function fromRfc2822(text: string): Date | null {
  const m = RFC2822.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
  const offset = offsetMinutes(m[7]);
  if (month === 0 || offset === null) return null;
  return instant({
    year: Number(m[3]),
    month,
    day: Number(m[1]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    ms: 0,
    offset,
  });
}

export function parseDateTime(input: unknown): Date | null {
  if (typeof input === 'number') return Number.isFinite(input) && Number.isInteger(input) ? new Date(input) : null;
  if (typeof input !== 'string') return null;
  const text = input.trim();
  const date = fromIso(text) ?? fromRfc2822(text);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
