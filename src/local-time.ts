/**
 * Local times of day in IANA time zones (docs/automations.md "Local times"), by the runtime's own zone data:
 * DELAY `until`. Pure.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** Whether `zone` is an IANA time zone this runtime knows (`America/New_York`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The zone's offset from UTC at instant `t` (ms, local minus UTC). */
function offsetAt(zone: string, t: number): number {
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(t))
      .map((p) => [p.type, Number(p.value)]),
  );
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - (t - (((t % 1000) + 1000) % 1000));
}

/**
 * The instant the zone's clocks read the wall time `wall` (its fields as UTC's). A time the clocks skip (a
 * spring-forward) reads as the same time of the offset before the change, so it lands after the gap; a time
 * they repeat (a fall-back) is its first reading.
 */
function instantOf(zone: string, wall: number): number {
  const before = wall - offsetAt(zone, wall - 86_400_000);
  const after = wall - offsetAt(zone, wall + 86_400_000);
  const fits = (t: number) => t + offsetAt(zone, t) === wall;
  return fits(before) ? before : fits(after) ? after : before;
}

/** `HH:MM` as minutes of the day. */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The first instant after `after` (ms) at which the clocks of `zone` read `time` (`HH:MM`). */
export function nextLocalTime(after: number, time: string, zone: string): number {
  const local = new Date(after + offsetAt(zone, after));
  const minutes = minutesOf(time);
  for (let day = 0; ; day++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + day, 0, minutes);
    const at = instantOf(zone, wall);
    if (at > after) return at;
  }
}

/** The zone's local time of day at instant `t`, in minutes. */
function localMinutes(t: number, zone: string): number {
  const local = new Date(t + offsetAt(zone, t));
  return local.getUTCHours() * 60 + local.getUTCMinutes();
}

/**
 * When a quiet window (`from` to `to`, local `HH:MM`; overnight when `from` is later than `to`) that holds instant
 * `t` ends, in `zone`; null when `t` is outside it. `from` is in the window, `to` not.
 */
export function quietUntil(t: number, window: { from: string; to: string }, zone: string): number | null {
  const now = localMinutes(t, zone);
  const [from, to] = [minutesOf(window.from), minutesOf(window.to)];
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  return inside ? nextLocalTime(t, window.to, zone) : null;
}
