import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { admin, databaseUrl, templateName, workerDbName } from '../setup/db';

let created: Promise<string> | undefined;

const runId = () => process.env.TEST_RUN_ID!;

async function cloneTemplate(c: Client, name: string): Promise<void> {
  // Two workers cloning the template at once: PostgreSQL refuses the second while the first copies.
  for (let attempt = 0; ; attempt++) {
    try {
      return void (await c.query(`create database "${name}" template "${templateName(runId())}"`));
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt > 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** This jest worker's own database, cloned from the run's migrated template. Tests isolate by project. */
export function workerDatabaseUrl(): Promise<string> {
  created ??= (async () => {
    const name = workerDbName(runId(), process.env.JEST_WORKER_ID ?? '1');
    await admin(async (c) => {
      const exists = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) await cloneTemplate(c, name);
    });
    return databaseUrl(name);
  })();
  return created;
}

/** A database of its own for a test that breaks it on purpose; the run's teardown drops it. */
export async function throwawayDatabaseUrl(): Promise<string> {
  const name = `${workerDbName(runId(), process.env.JEST_WORKER_ID ?? '1')}_${randomBytes(4).toString('hex')}`;
  await admin((c) => cloneTemplate(c, name));
  return databaseUrl(name);
}
