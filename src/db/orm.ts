import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { CommitNotifier } from './commit-notifier';
import { migrationsList } from './migrations';

export type Orm = MikroORM;

/**
 * What the ORM maps, given by the composition root (src/app/orm.ts) so this layer names no module: the entities,
 * and the channel to notify after a commit that inserted rows of an entity (src/db/commit-notifier.ts).
 */
export interface OrmSchema {
  entities: NonNullable<Options['entities']>;
  notifyOnCommit: Record<string, string>;
}

/**
 * `statementTimeoutMs` bounds every statement of the pool's connections (PostgreSQL's statement_timeout, set
 * when a connection opens); 0 leaves them unbounded.
 */
export function ormOptions(schema: OrmSchema, databaseUrl: string, poolSize = 20, statementTimeoutMs = 0): Options {
  const notifier = new CommitNotifier(schema.notifyOnCommit);
  return {
    // The ORM closes its driver first: the notifier is quieted before the pool it sends through closes.
    driver: class extends PostgreSqlDriver {
      override async close(force?: boolean): Promise<void> {
        await notifier.close();
        await super.close(force);
      }
    },
    clientUrl: databaseUrl,
    ...(statementTimeoutMs > 0 ? { driverOptions: { connection: { statement_timeout: statementTimeoutMs } } } : {}),
    entities: schema.entities,
    extensions: [Migrator],
    pool: { min: 0, max: poolSize },
    // Silent: a first start applies every migration, and one line each drowned the rest (src/main/migrate.ts sums them up).
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    // Entities are plain column maps; references are enforced by deferred foreign keys in migrations.
    discovery: { warnWhenNoEntities: true },
    forceUtcTimezone: true,
    subscribers: [notifier],
    debug: false,
  };
}

export function initOrmOf(schema: OrmSchema, databaseUrl: string, poolSize?: number, statementTimeoutMs?: number): Promise<Orm> {
  return MikroORM.init(ormOptions(schema, databaseUrl, poolSize, statementTimeoutMs));
}

export async function migrate(orm: Orm): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((m) => m.name);
}
