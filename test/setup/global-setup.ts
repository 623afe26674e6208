import { initOrm, migrate } from '../../src/db/orm';
import { admin, databaseUrl, templateName } from './db';

/** Migrates one template database per run; each jest worker clones it (see test/helpers/database.ts). */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${process.pid}`;
  process.env.TEST_RUN_ID = runId;
  const name = templateName(runId);
  await admin(async (c) => {
    // Databases left by runs that were killed before their teardown.
    const stale = await c.query(
      `select datname from pg_database where datname like 'pw_test_%' and
       (select count(*) from pg_stat_activity a where a.datname = pg_database.datname) = 0`,
    );
    for (const row of stale.rows as { datname: string }[]) {
      if (!row.datname.startsWith(`pw_test_${runId}`)) await c.query(`drop database if exists "${row.datname}"`).catch(() => {});
    }
    await c.query(`create database "${name}"`);
  });
  const orm = await initOrm(databaseUrl(name), 2);
  await migrate(orm);
  await orm.close();
}
