import type { EntityManager } from '@mikro-orm/postgresql';

/** Settled deliveries are kept 30 days; pending ones are the queue and stay until delivered. */
const PRUNE = `delete from webhook_deliveries where "created_at" < now() - interval '30 days' and "status" <> 'PENDING'`;

export async function pruneWebhookDeliveries(em: EntityManager): Promise<void> {
  await em.execute(PRUNE);
}
