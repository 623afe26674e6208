import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { addContact, allOf, createSegment, filter, proPlan } from './helpers';
import { tenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

describe('POST /segments/count', () => {
  it('counts the contacts an unsaved condition matches, within the project, saving nothing', async () => {
    const [t, other] = [await tenant(stack), await tenant(stack)];
    await addContact(t, 'ann@example.test', { plan: 'pro', seats: 3 });
    await addContact(t, 'bob@example.test', { plan: 'free', seats: 10 });
    await addContact(t, 'cat@example.test', { plan: 'pro', seats: 12 });
    await addContact(other, 'dan@example.test', { plan: 'pro' });
    const count = async (condition: object) => (await t.c.post('/segments/count').send({ condition }).expect(200)).body;
    expect(await count(proPlan)).toEqual({ memberCount: 2 });
    expect(await count(allOf(filter('data.plan', 'equals', 'pro'), filter('data.seats', 'greaterThan', 5)))).toEqual({ memberCount: 1 });
    expect(
      await count({
        logic: 'OR',
        groups: [{ filters: [filter('data.plan', 'equals', 'free')] }, { filters: [filter('data.seats', 'lessThan', 5)] }],
      }),
    ).toEqual({ memberCount: 2 });
    expect(await sql(stack, 'select id from segments where project_id = ?', [t.project.id])).toEqual([]);
  });

  it('refuses an operator the field cannot take with the 400 naming it', async () => {
    const t = await tenant(stack);
    await addContact(t, 'ann@example.test', { plan: 'pro' });
    const res = await t.c.post('/segments/count').send({ condition: allOf(filter('data.plan', 'greaterThan', 'a')) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', errors: [{ field: 'condition.groups.0.filters.0.operator' }] });
  });

  it('refuses a condition naming the segment being edited, as saving it would', async () => {
    const t = await tenant(stack);
    const segment = await createSegment(t, { name: 'Pro', condition: proPlan });
    const condition = allOf(filter(`segment.${segment.id}`, 'memberOfSegment'));
    const res = await t.c.post('/segments/count').send({ condition, segmentId: segment.id });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('cycle');
    await t.c.post('/segments/count').send({ condition }).expect(200);
  });
});
