import type { EntityManager } from '@mikro-orm/postgresql';
import { digest } from '../../crypto/keys';
import { ApiError } from '../../http/errors';
import { countInWindow, uncount } from '../../http/window-counter';
import type { Logger } from '../../logger';

/** Failed logins allowed within one window, per account (by address, whether or not it exists) and per client address. */
export const LOGIN_LIMITS = { account: 10, client: 50 } as const;
export const LOGIN_WINDOW_MINUTES = 15;

const tooManyAttempts = (retryAfter: number) =>
  new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many failed logins; try again later', {
    details: { retryAfter },
    suggestion: `Wait ${retryAfter} second(s), or reset the password from the link on the login page.`,
    headers: { 'Retry-After': String(retryAfter) },
  });

/**
 * Login throttling: every attempt is counted as a failure before the password is checked, so that concurrent
 * guesses cannot slip past the limit, and a successful one is taken back (`succeeded`). Once either count
 * is over its limit, every attempt is refused with 429 until that window ends: the same answer for an
 * address with or without an account. When the counter store fails, logins are allowed.
 */
export class LoginThrottle {
  private readonly keys: [string, string];

  constructor(
    private readonly em: EntityManager,
    private readonly logger: Logger,
    email: string,
    clientAddress: string,
  ) {
    this.keys = [`login:account:${digest(email)}`, `login:client:${clientAddress}`];
  }

  /** Counts the attempt; throws 429 when the account or the client address is over its limit. */
  async admit(): Promise<void> {
    const counts = await this.attempt(() => countInWindow(this.em, this.keys, LOGIN_WINDOW_MINUTES));
    const over = (counts ?? []).filter((c) => c.count > (c.key === this.keys[0] ? LOGIN_LIMITS.account : LOGIN_LIMITS.client));
    if (over.length === 0) return;
    throw tooManyAttempts(Math.max(...over.map((c) => c.resetSeconds)));
  }

  /** The password was right: the attempt is not a failure. */
  async succeeded(): Promise<void> {
    await this.attempt(() => uncount(this.em, this.keys));
  }

  private async attempt<T>(fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.logger.warn({ err }, 'login throttle store failed; allowing the attempt');
      return undefined;
    }
  }
}
