import { compactRollups, EMAIL_COUNTERS, EMAIL_KEY } from '../../src/modules/analytics/compact-rollups';
import { startStack, type TestStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import type { TestProject } from '../helpers/fixtures';
import { recipient } from '../emails/helpers';
import { get, openMail, rollupDrift, sendAndDeliver } from '../activity/helpers';
import { senderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const slotsOf = async (table: 'email_stats' | 'event_stats', projectId: string) =>
  (await sql<{ slot: number }>(stack, `select distinct slot from ${table} where project_id = ? order by 1`, [projectId])).map(
    (r) => r.slot,
  );

const track = (project: TestProject, email: string) =>
  stack.http().post('/v1/track').set('Authorization', `Bearer ${project.public}`).send({ email, event: 'signed_up' }).expect(200);

/** /activity/stats without its window, which moves with the clock. */
async function activityCounts(project: TestProject) {
  const { from: _from, to: _to, ...counts } = (await get(stack, project, '/activity/stats').expect(200)).body;
  return counts;
}

describe('folding the rollup slots of past hours', () => {
  it('writes back every column of email_stats but the slot', async () => {
    const columns = await sql<{ column_name: string }>(
      stack,
      `select column_name from information_schema.columns where table_name = 'email_stats'`,
      [],
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual([...EMAIL_KEY, ...EMAIL_COUNTERS, 'slot'].sort());
  });

  it('leaves one slot per key and every count as it was, and folds only hours before the cut', async () => {
    const sender = await senderTenant(stack);
    const { project } = sender;
    // Concurrent writes spread over the slots by row id.
    await Promise.all(Array.from({ length: 40 }, (_, i) => track(project, `fold-${i}@example.test`)));
    const delivered = await Promise.all(Array.from({ length: 6 }, () => sendAndDeliver(stack, sender, recipient(), 'Hello')));
    await openMail(stack, delivered[0]!);
    expect((await slotsOf('event_stats', project.id)).length).toBeGreaterThan(1);
    expect((await slotsOf('email_stats', project.id)).length).toBeGreaterThan(1);
    const before = {
      timeseries: (await get(stack, project, '/analytics/timeseries').expect(200)).body,
      topEvents: (await get(stack, project, '/analytics/top-events').expect(200)).body,
      stats: await activityCounts(project),
    };

    // A cut before this hour folds nothing written now.
    await compactRollups(stack.deps.orm.em.fork(), new Date(Date.now() - 2 * 3600_000));
    expect((await slotsOf('event_stats', project.id)).length).toBeGreaterThan(1);

    expect(await compactRollups(stack.deps.orm.em.fork(), new Date(Date.now() + 3600_000))).not.toBeNull();
    expect(await slotsOf('event_stats', project.id)).toEqual([0]);
    expect(await slotsOf('email_stats', project.id)).toEqual([0]);
    expect(await rollupDrift(stack, project.id)).toEqual([]);
    expect((await get(stack, project, '/analytics/timeseries').expect(200)).body).toEqual(before.timeseries);
    expect((await get(stack, project, '/analytics/top-events').expect(200)).body).toEqual(before.topEvents);
    expect(await activityCounts(project)).toEqual(before.stats);

    // Writes after the fold land in slots again and count on top of the folded rows.
    await track(project, 'fold-0@example.test');
    expect(await rollupDrift(stack, project.id)).toEqual([]);
  });
});
