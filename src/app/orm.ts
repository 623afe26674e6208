import { initOrmOf, type Orm, type OrmSchema } from '../db/orm';
import { outboxNotifications } from '../modules/outbox/channel';
import { entities } from './entities';

/** Every entity, and the outbox woken after a commit that recorded events. */
export const schema: OrmSchema = { entities, notifyOnCommit: outboxNotifications };

export function initOrm(databaseUrl: string, poolSize?: number, statementTimeoutMs?: number): Promise<Orm> {
  return initOrmOf(schema, databaseUrl, poolSize, statementTimeoutMs);
}
