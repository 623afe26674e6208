import { randomBytes } from 'node:crypto';
import { initOrm } from '../../src/app/orm';
import type { Orm } from '../../src/db/orm';
import { analyzeStaleTables } from '../../src/modules/emails/delivery/stale-statistics';
import { throwawayDatabaseUrl } from '../helpers/database';

/**
 * The pump analyzes the queue and the emails when their planner statistics say they are nearly empty while a
 * full batch is due (src/modules/emails/delivery/stale-statistics.ts). A database of its own, without
 * autovacuum on those tables, so that nothing else refreshes their statistics meanwhile.
 */
let orm: Orm;
beforeAll(async () => {
  orm = await initOrm(await throwawayDatabaseUrl(), 2);
  await orm.em
    .fork()
    .execute('alter table email_queue set (autovacuum_enabled = false); alter table emails set (autovacuum_enabled = false)');
});
afterAll(() => orm?.close());

const estimate = async (table: string) => {
  const [row] = await orm.em
    .fork()
    .execute<{ n: number }[]>(`select "reltuples"::float8 as n from pg_class where "oid" = ?::regclass`, [table]);
  return row!.n;
};

it('analyzes a table whose statistics say it is empty while a batch is due, and only then', async () => {
  const em = orm.em.fork();
  await em.execute('analyze email_queue; analyze emails');
  await em.execute(
    `insert into email_queue ("email_id", "project_id", "source_type", "priority", "due_at")
     select gen_random_uuid(), gen_random_uuid(), 'CAMPAIGN', 2, now() from generate_series(1, 300)`,
  );
  expect(await estimate('email_queue')).toBeLessThan(200);

  expect((await analyzeStaleTables(em, 200)).sort()).toEqual(['email_queue', 'emails']);
  expect(await estimate('email_queue')).toBe(300);
  // The queue's statistics are fresh now; the emails table is still empty, so its estimate stays below the batch.
  expect(await analyzeStaleTables(em, 200)).toEqual(['emails']);
  expect(await analyzeStaleTables(em, 300)).toEqual(['emails']);
  expect((await analyzeStaleTables(em, 301)).sort()).toEqual(['email_queue', 'emails']);
});

it('leaves alone the tables its role may not analyze (ANALYZE would only warn, at every full claim)', async () => {
  const role = `pw_stale_${randomBytes(4).toString('hex')}`;
  await orm.em.fork().execute(`create role "${role}"`);
  try {
    await orm.em.fork().execute('analyze email_queue; analyze emails');
    await orm.em.fork().transactional(async (tx) => {
      await tx.execute(`set local role "${role}"`);
      expect(await analyzeStaleTables(tx, 1_000_000)).toEqual([]);
    });
    await orm.em.fork().execute(`grant maintain on email_queue to "${role}"`);
    await orm.em.fork().transactional(async (tx) => {
      await tx.execute(`set local role "${role}"`);
      expect(await analyzeStaleTables(tx, 1_000_000)).toEqual(['email_queue']);
    });
  } finally {
    await orm.em.fork().execute(`drop owned by "${role}"; drop role "${role}"`);
  }
});
