import type { Orm } from '../../db/orm';

/**
 * Whether softbounce@ refuses this attempt at the message: the first attempt is refused, the next accepted
 * (docs/sandbox.md). The memory is a row in the database (migration 0034), so every worker, a restarted one
 * too, answers a message the same way. A row lives from the refusal to the acceptance.
 */
export async function refusesSoftbounce(orm: Orm, messageId: string): Promise<boolean> {
  const em = orm.em.fork();
  const refused = await em.execute<Array<{ message_id: string }>>(
    'insert into sandbox_softbounces ("message_id") values (?) on conflict do nothing returning "message_id"',
    [messageId],
  );
  if (refused.length > 0) return true;
  await em.execute('delete from sandbox_softbounces where "message_id" = ?', [messageId]);
  return false;
}
