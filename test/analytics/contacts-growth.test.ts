import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { tenant, type Tenant } from '../helpers/tenants';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const today = () => Math.floor(Date.now() / DAY) * DAY;

/** Contacts created through the API, then dated back by the days given (as if created then). */
async function contactsCreated(t: Tenant, daysAgo: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, days] of daysAgo.entries()) {
    const res = await t.c
      .post('/contacts')
      .send({ email: `growth-${i}-${Date.now()}@example.test` })
      .expect(201);
    ids.push(res.body.id);
    if (days > 0) await sql(stack, `update contacts set created_at = created_at - ? * interval '1 day' where id = ?`, [days, res.body.id]);
  }
  return ids;
}

describe('GET /analytics/contacts', () => {
  it('counts the contacts created per UTC day and the running total, from those created before the range', async () => {
    const t = await tenant(stack);
    const ids = await contactsCreated(t, [40, 40, 3, 0, 0, 0]);
    const body = (await t.c.get('/analytics/contacts').expect(200)).body;
    expect(body.interval).toBe('day');
    expect(body.points).toHaveLength(31);
    expect(body.before).toBe(2);
    expect(body.points.at(-1)).toEqual({ time: new Date(today()).toISOString(), created: 3, total: 6 });
    expect(body.points.at(-4)).toEqual({ time: new Date(today() - 3 * DAY).toISOString(), created: 1, total: 3 });
    expect(body.points[0]).toMatchObject({ created: 0, total: 2 });
    expect(body.totals).toEqual({ created: 4, total: 6 });

    // A deleted contact leaves the counts: the series counts the contacts that exist now.
    await t.c.delete(`/contacts/${ids[2]}`).expect(204);
    const after = (await t.c.get('/analytics/contacts').expect(200)).body;
    expect(after.totals).toEqual({ created: 3, total: 5 });
    expect(after.points.at(-4)).toMatchObject({ created: 0, total: 2 });
  });

  it('by UTC hour over an explicit range in the past, the bounds widened to whole hours', async () => {
    const t = await tenant(stack);
    const [past] = await contactsCreated(t, [2, 0]);
    const [row] = await sql<{ created_at: Date }>(stack, 'select created_at from contacts where id = ?', [past]);
    const from = new Date(today() - 2 * DAY - 12 * HOUR + 60_000);
    const to = new Date(today() - DAY);
    const body = (await t.c.get(`/analytics/contacts?interval=hour&from=${from.toISOString()}&to=${to.toISOString()}`).expect(200)).body;
    expect(body.from).toBe(new Date(Math.floor(from.getTime() / HOUR) * HOUR).toISOString());
    expect(body.to).toBe(to.toISOString());
    expect(body.points).toHaveLength(36);
    // The contact of two days ago is in the range, in its hour; today's is after it, so in no count.
    expect(body.before).toBe(0);
    expect(body.totals).toEqual({ created: 1, total: 1 });
    const createdHour = Math.floor(new Date(row!.created_at).getTime() / HOUR) * HOUR;
    expect(body.points.filter((p: { created: number }) => p.created > 0)).toEqual([
      { time: new Date(createdHour).toISOString(), created: 1, total: 1 },
    ]);
  });

  it('refuses bad parameters with 400 and shows nothing of another project', async () => {
    const t = await tenant(stack);
    for (const query of ['interval=week', 'from=yesterday', 'to=2021-02-30T00:00:00Z']) {
      const res = await t.c.get(`/analytics/contacts?${query}`).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'BAD_REQUEST',
        errors: [expect.objectContaining({ field: expect.stringMatching(/^query\./) })],
      });
    }
    const other = await tenant(stack);
    await contactsCreated(other, [0, 0]);
    const body = (await t.c.get('/analytics/contacts').expect(200)).body;
    expect(body.totals).toEqual({ created: 0, total: 0 });
    expect(body.before).toBe(0);
  });
});
