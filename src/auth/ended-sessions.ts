import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { SessionClaims } from './session';

/**
 * Logout ends one session on the server: its id is kept in `ended_sessions` until its token would have
 * expired anyway, and the session lookup (authenticate.ts) refuses it, in the same query that loads the user.
 */
export async function endSession(em: EntityManager, claims: SessionClaims): Promise<void> {
  await em
    .getConnection()
    .execute(
      'insert into ended_sessions ("session_id", "expires_at") values (?, ?) on conflict do nothing',
      [claims.sessionId, claims.expiresAt],
      'run',
    );
}

/** Forgets ended sessions whose tokens have expired; called periodically by the API process. */
export async function pruneEndedSessions(em: EntityManager, logger: Logger): Promise<void> {
  try {
    await em.getConnection().execute('delete from ended_sessions where "expires_at" < now()', [], 'run');
  } catch (err) {
    logger.warn({ err }, 'could not prune ended sessions');
  }
}

/** The condition, on a `users` row, that the session named by the statement's parameter was not ended. */
export const SESSION_NOT_ENDED = 'not exists (select 1 from ended_sessions e where e."session_id" = ?::uuid)';
