import { isTimeZone, nextLocalTime, quietUntil } from '../../src/local-time';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('nextLocalTime', () => {
  it('finds the next 09:00 in New York on either side of the spring-forward and the fall-back', () => {
    // 2027-03-14 02:00 EST the clocks go to 03:00 EDT: 09:00 is 14:00Z before, 13:00Z after.
    expect(iso(nextLocalTime(at('2027-03-13T15:00:00Z'), '09:00', 'America/New_York'))).toBe('2027-03-14T13:00:00.000Z');
    expect(iso(nextLocalTime(at('2027-03-13T12:00:00Z'), '09:00', 'America/New_York'))).toBe('2027-03-13T14:00:00.000Z');
    // 2026-11-01 02:00 EDT the clocks go back to 01:00 EST: 09:00 is 13:00Z before, 14:00Z after.
    expect(iso(nextLocalTime(at('2026-10-31T20:00:00Z'), '09:00', 'America/New_York'))).toBe('2026-11-01T14:00:00.000Z');
    expect(iso(nextLocalTime(at('2026-10-30T20:00:00Z'), '09:00', 'America/New_York'))).toBe('2026-10-31T13:00:00.000Z');
  });

  it('takes today when the time is still ahead, tomorrow when it has passed or is now', () => {
    expect(iso(nextLocalTime(at('2026-06-01T08:59:00Z'), '09:00', 'UTC'))).toBe('2026-06-01T09:00:00.000Z');
    expect(iso(nextLocalTime(at('2026-06-01T09:00:00Z'), '09:00', 'UTC'))).toBe('2026-06-02T09:00:00.000Z');
    expect(iso(nextLocalTime(at('2026-12-31T23:30:00Z'), '00:15', 'UTC'))).toBe('2027-01-01T00:15:00.000Z');
    // Tokyo is UTC+9 all year; Kolkata +5:30.
    expect(iso(nextLocalTime(at('2026-06-01T00:00:00Z'), '08:00', 'Asia/Tokyo'))).toBe('2026-06-01T23:00:00.000Z');
    expect(iso(nextLocalTime(at('2026-06-01T00:00:00Z'), '08:00', 'Asia/Kolkata'))).toBe('2026-06-01T02:30:00.000Z');
  });

  it('lands a time the clocks skip after the gap, and a repeated time at its first reading', () => {
    // 02:30 does not exist in New York on 2027-03-14; it reads as 02:30 EST, which is 03:30 EDT.
    expect(iso(nextLocalTime(at('2027-03-14T05:00:00Z'), '02:30', 'America/New_York'))).toBe('2027-03-14T07:30:00.000Z');
    // 01:30 happens twice on 2026-11-01: first at 01:30 EDT (05:30Z).
    expect(iso(nextLocalTime(at('2026-11-01T04:00:00Z'), '01:30', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('knows IANA zones and nothing else', () => {
    expect(['UTC', 'America/New_York', 'Europe/Paris'].map(isTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', '', 'EST5EDT,M3'].map(isTimeZone)).toEqual([false, false, false]);
  });
});

describe('quietUntil', () => {
  const night = { from: '21:00', to: '08:00' };
  it('holds an instant inside an overnight window until its end, in the zone, and lets others pass', () => {
    // 22:30 in New York (EST, -5) is 03:30Z; the window ends at 08:00 local, 13:00Z.
    expect(iso(quietUntil(at('2026-12-01T03:30:00Z'), night, 'America/New_York')!)).toBe('2026-12-01T13:00:00.000Z');
    // 07:59 local: a minute left.
    expect(iso(quietUntil(at('2026-12-01T12:59:00Z'), night, 'America/New_York')!)).toBe('2026-12-01T13:00:00.000Z');
    expect(quietUntil(at('2026-12-01T13:00:00Z'), night, 'America/New_York')).toBeNull();
    expect(quietUntil(at('2026-12-01T01:59:00Z'), night, 'America/New_York')).toBeNull();
    expect(iso(quietUntil(at('2026-12-01T02:00:00Z'), night, 'America/New_York')!)).toBe('2026-12-01T13:00:00.000Z');
  });

  it('reads a window within a day as such', () => {
    const lunch = { from: '12:00', to: '14:00' };
    expect(iso(quietUntil(at('2026-06-01T12:30:00Z'), lunch, 'UTC')!)).toBe('2026-06-01T14:00:00.000Z');
    expect(quietUntil(at('2026-06-01T22:00:00Z'), lunch, 'UTC')).toBeNull();
    expect(quietUntil(at('2026-06-01T11:59:00Z'), lunch, 'UTC')).toBeNull();
  });
});
