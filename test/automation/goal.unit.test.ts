import { checkedGoal, reachesGoal } from '../../src/modules/automations/goal';
import { ApiError } from '../../src/http/errors';

const one = (filter: object) => ({ logic: 'AND' as const, groups: [{ filters: [filter] }] });
const now = new Date('2026-11-28T12:00:00Z');

describe('a goal (src/modules/automations/goal.ts)', () => {
  it('is reached by its event whose data matches its filter', async () => {
    const goal = await checkedGoal({ event: 'purchase', filter: one({ field: 'event.amount', operator: 'greaterThan', value: 10 }) });
    expect(reachesGoal(goal, { name: 'purchase', data: { amount: 25 } }, now)).toBe(true);
    expect(reachesGoal(goal, { name: 'purchase', data: { amount: '25' } }, now)).toBe(true);
    expect(reachesGoal(goal, { name: 'purchase', data: { amount: 5 } }, now)).toBe(false);
    expect(reachesGoal(goal, { name: 'purchase', data: {} }, now)).toBe(false);
    expect(reachesGoal(goal, { name: 'refund', data: { amount: 25 } }, now)).toBe(false);
    expect(reachesGoal({ event: 'purchase' }, { name: 'purchase', data: {} }, now)).toBe(true);
  });

  it('reads nested keys, negations, groups and dates of the data at the instant given', async () => {
    const goal = await checkedGoal({
      event: 'purchase',
      filter: {
        logic: 'OR',
        groups: [
          { filters: [{ field: 'event.plan.tier', operator: 'equals', value: 'pro' }] },
          {
            filters: [
              { field: 'event.paidAt', operator: 'within', value: 1, unit: 'days' },
              { field: 'event.coupon', operator: 'notExists' },
            ],
          },
        ],
      },
    });
    expect(reachesGoal(goal, { name: 'purchase', data: { plan: { tier: 'pro' } } }, now)).toBe(true);
    expect(reachesGoal(goal, { name: 'purchase', data: { paidAt: '2026-11-28T06:00:00Z' } }, now)).toBe(true);
    expect(reachesGoal(goal, { name: 'purchase', data: { paidAt: '2026-11-28T06:00:00Z', coupon: 'X' } }, now)).toBe(false);
    expect(reachesGoal(goal, { name: 'purchase', data: { paidAt: '2026-11-20T06:00:00Z' } }, now)).toBe(false);
  });

  it('refuses a filter on anything but the event data, naming the field under the goal', async () => {
    for (const [filter, field] of [
      [one({ field: 'data.plan', operator: 'equals', value: 'pro' }), 'goal.filter.groups.0.filters.0.field'],
      [one({ field: 'email', operator: 'exists' }), 'goal.filter.groups.0.filters.0.field'],
      [one({ field: 'event.signup', operator: 'triggered' }), 'goal.filter.groups.0.filters.0.field'],
      [one({ field: 'segment.00000000-0000-4000-8000-000000000000', operator: 'memberOfSegment' }), 'goal.filter.groups.0.filters.0.field'],
      [one({ field: 'event.amount', operator: 'within', value: 3 }), 'goal.filter.groups.0.filters.0.unit'],
    ] as const) {
      const err = await checkedGoal({ event: 'purchase', filter }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect([(err as ApiError).status, (err as ApiError).extra.errors]).toEqual([
        400,
        [{ field, message: expect.any(String), code: 'invalid_filter' }],
      ]);
    }
  });
});
