import { admin, databaseUrl, templateName, workerDbName } from '../setup/db';

let created: Promise<string> | undefined;

/** This jest worker's own database, cloned from the run's migrated template. Tests isolate by project. */
export function workerDatabaseUrl(): Promise<string> {
  created ??= (async () => {
    const runId = process.env.TEST_RUN_ID!;
    const name = workerDbName(runId, process.env.JEST_WORKER_ID ?? '1');
    await admin(async (c) => {
      const exists = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount !== 0) return;
      // Two workers cloning the template at once: PostgreSQL refuses the second while the first copies.
      for (let attempt = 0; ; attempt++) {
        try {
          return void (await c.query(`create database "${name}" template "${templateName(runId)}"`));
        } catch (err) {
          if ((err as { code?: string }).code !== '55006' || attempt > 50) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    });
    return databaseUrl(name);
  })();
  return created;
}
