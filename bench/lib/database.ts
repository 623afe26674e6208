import type { EntityManager } from '@mikro-orm/postgresql';
import { initOrm } from '../../src/app/orm';
import { migrate, type Orm } from '../../src/db/orm';
import { ensureDatabase, ensurePostgres } from '../../scripts/lib/postgres';
import { ports } from '../../scripts/lib/ports';

export interface BenchDatabase {
  url: string;
  orm: Orm;
  close(): Promise<void>;
}

/**
 * `postwire_bench` on the server of `npm start` (or DATABASE_URL's), migrated: big seeds live there, away
 * from the development database. Each benchmark seeds its own project and reuses it on later runs; one whose
 * seed changes the schema for a while takes a database of its own (`name`). BENCH_DATABASE overrides the
 * default, e.g. to compare two states of the schema side by side.
 */
export async function openBenchDatabase(name = process.env.BENCH_DATABASE ?? 'postwire_bench'): Promise<BenchDatabase> {
  const pg = await ensurePostgres(ports.postgres, console.log);
  const url = await ensureDatabase(pg.adminUrl, name);
  const orm = await initOrm(url, 4);
  await migrate(orm);
  return {
    url,
    orm,
    close: async () => {
      await orm.close();
      await pg.stop();
    },
  };
}

/**
 * Events a benchmark seeds are history, not news: their rows in the events outbox (written by its insert
 * trigger) are dropped, so that no dispatcher hands them to automations and webhooks.
 */
export async function seededAsHistory(em: EntityManager, projectId: string): Promise<void> {
  await em.execute('delete from event_outbox where project_id = ?', [projectId]);
}
