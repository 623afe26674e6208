import { cappedUntil } from '../../src/modules/consent/frequency-cap';

const DAY = 24 * 60 * 60 * 1000;
const cap = { maxEmails: 3, windowDays: 7 };

describe("cappedUntil (a simulation's frequency cap)", () => {
  it('lets an email go while fewer than maxEmails are in the window', () => {
    expect(cappedUntil([], cap, 0)).toBeNull();
    expect(cappedUntil([0, DAY], cap, 2 * DAY)).toBeNull();
  });

  it('holds it until the oldest of the last maxEmails leaves the window', () => {
    expect(cappedUntil([0, DAY, 2 * DAY], cap, 3 * DAY)).toBe(7 * DAY);
    // Older emails than the last three do not move the instant; the order given does not matter.
    expect(cappedUntil([2 * DAY, -3 * DAY, DAY, 1.5 * DAY], cap, 3 * DAY)).toBe(8 * DAY);
  });

  it('counts only the window: an email exactly windowDays old is out of it', () => {
    expect(cappedUntil([0, DAY, 2 * DAY], cap, 7 * DAY)).toBeNull();
    expect(cappedUntil([0, DAY, 2 * DAY], cap, 7 * DAY - 1)).toBe(7 * DAY);
  });
});
