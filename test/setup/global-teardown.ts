import fs from 'node:fs';
import { admin } from './db';

export default async function globalTeardown(): Promise<void> {
  const runId = process.env.TEST_RUN_ID;
  if (process.env.TEST_DASHBOARD_DIR) fs.rmSync(process.env.TEST_DASHBOARD_DIR, { recursive: true, force: true });
  if (!runId) return;
  await admin(async (c) => {
    const rows = await c.query(`select datname from pg_database where datname like $1`, [`pw_test_${runId}%`]);
    for (const row of rows.rows as { datname: string }[]) {
      await c.query(`drop database if exists "${row.datname}" with (force)`);
    }
  });
}
