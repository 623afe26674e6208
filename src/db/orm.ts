import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { CommitNotifier } from './commit-notifier';
import { outboxNotifications } from '../modules/outbox/channel';
import { migrationsList } from './migrations';

export type Orm = MikroORM;

/**
 * `statementTimeoutMs` bounds every statement of the pool's connections (PostgreSQL's statement_timeout, set
 * when a connection opens); 0 leaves them unbounded.
 */
export function ormOptions(databaseUrl: string, poolSize = 20, statementTimeoutMs = 0): Options {
  return {
    clientUrl: databaseUrl,
    ...(statementTimeoutMs > 0 ? { driverOptions: { connection: { statement_timeout: statementTimeoutMs } } } : {}),
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolSize },
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    // Entities are plain column maps; references are enforced by deferred foreign keys in migrations.
    discovery: { warnWhenNoEntities: true },
    forceUtcTimezone: true,
    subscribers: [new CommitNotifier(outboxNotifications)],
    debug: false,
  };
}

export function initOrm(databaseUrl: string, poolSize?: number, statementTimeoutMs?: number): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, poolSize, statementTimeoutMs));
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((m) => m.name);
}
