import { isoDuration, offsetMs } from '../../src/modules/automations/simulate/duration';

describe('simulation offsets', () => {
  it.each([
    ['2 days', 2 * 86_400_000],
    ['1 day', 86_400_000],
    ['90 minutes', 5_400_000],
    ['1 hour', 3_600_000],
    ['0 minutes', 0],
  ])('reads %s', (offset, ms) => expect(offsetMs(offset)).toBe(ms));

  it.each(['3', '2 weeks', '-1 days', '1.5 days', ' 2 days'])('refuses %p', (offset) => expect(offsetMs(offset)).toBeNaN());

  it.each([
    [0, 'PT0S'],
    [400, 'PT0S'],
    [1_600, 'PT2S'],
    [5_400_000, 'PT1H30M'],
    [32 * 86_400_000, 'P32D'],
    [86_400_000 + 5_400_000 + 45_000, 'P1DT1H30M45S'],
  ])('writes %d ms as %s', (ms, iso) => expect(isoDuration(ms)).toBe(iso));
});
