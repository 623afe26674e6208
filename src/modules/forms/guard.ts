import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { digest } from '../../crypto/keys';
import { countInWindow } from '../../http/window-counter';
import type { Logger } from '../../logger';

/** The limits of signups, per hour (docs/consent.md "The public endpoint"). */
export const SIGNUP_WINDOW_MINUTES = 60;

/**
 * Counts a submission against a limit of the form's project: per client address (every submission, bots'
 * included) or per email address (valid ones). Answers the seconds to wait when over the limit, else null.
 * When the counter store fails the submission is allowed, as the request limits do.
 */
async function overLimit(em: EntityManager, logger: Logger, key: string, limit: number): Promise<number | null> {
  try {
    const [count] = await countInWindow(em, [key], SIGNUP_WINDOW_MINUTES);
    return count && count.count > limit ? count.resetSeconds : null;
  } catch (err) {
    logger.warn({ err }, 'signup limit store failed; allowing the submission');
    return null;
  }
}

export const overClientLimit = (em: EntityManager, deps: { config: Config; logger: Logger }, projectId: string, client: string) =>
  overLimit(em, deps.logger, `signup:client:${projectId}:${client}`, deps.config.SIGNUP_LIMIT_PER_IP);

export const overAddressLimit = (em: EntityManager, deps: { config: Config; logger: Logger }, projectId: string, email: string) =>
  overLimit(em, deps.logger, `signup:address:${projectId}:${digest(email)}`, deps.config.SIGNUP_LIMIT_PER_ADDRESS);
