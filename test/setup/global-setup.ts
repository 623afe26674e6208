import { initOrm } from '../../src/app/orm';
import { migrate } from '../../src/db/orm';
import os from 'node:os';
import path from 'node:path';
import { admin, databaseUrl, templateName } from './db';
import { buildDashboard } from '../../scripts/lib/dashboard';

const STALE_AFTER_SECONDS = 6 * 3600;

/**
 * Migrates one template database per run; each jest worker clones it (see test/helpers/database.ts). Builds
 * the dashboard once per run, into a folder of its own, for the stacks to serve (test/dashboard/).
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Math.floor(Date.now() / 1000)}_${process.pid}`;
  process.env.TEST_RUN_ID = runId;
  process.env.TEST_DASHBOARD_DIR = path.join(os.tmpdir(), `postwire-dashboard-${runId}`);
  buildDashboard(process.env.TEST_DASHBOARD_DIR);
  const name = templateName(runId);
  await admin(async (c) => {
    // Databases left by runs that were killed before their teardown. Runs started in the last hours may
    // still be going (several `npm test` at once share the server), so only older ones are dropped.
    const stale = await c.query(`select datname from pg_database where datname like 'pw\\_test\\_%'`);
    const cutoff = Date.now() / 1000 - STALE_AFTER_SECONDS;
    for (const row of stale.rows as { datname: string }[]) {
      const started = Number(/^pw_test_(\d+)_/.exec(row.datname)?.[1] ?? 0);
      if (started < cutoff) await c.query(`drop database if exists "${row.datname}" with (force)`).catch(() => {});
    }
    await c.query(`create database "${name}"`);
  });
  const orm = await initOrm(databaseUrl(name), 2);
  await migrate(orm);
  await orm.close();
}
