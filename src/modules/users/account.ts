import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { hashPassword } from '../../crypto/passwords';
import { ApiError } from '../../http/errors';
import { passwordResetMail, sendSystemMail, verificationMail, type SystemMail } from '../../mail/system-mail';
import { User } from './entities';
import { TOKEN_TTL_MS, issueToken, resendWaitSeconds, spendToken, usableToken } from './tokens';

type MailDeps = Pick<Deps, 'mailer' | 'config' | 'logger'>;

export const mailUnavailable = () =>
  new ApiError(503, 'MAIL_UNAVAILABLE', 'The email could not be sent right now; nothing was changed', {
    suggestion: 'Try again in a few minutes.',
  });

/** Sends a mail the caller is waiting for; a failure becomes 503 so the surrounding transaction rolls back. */
export async function deliverNow(deps: MailDeps, mail: SystemMail): Promise<void> {
  try {
    await sendSystemMail(deps.mailer, deps.config, mail);
  } catch (err) {
    deps.logger.warn({ err, subject: mail.subject }, 'system mail failed');
    throw mailUnavailable();
  }
}

/** Sends a mail after the response: its outcome must not delay the request nor reveal anything through it. */
export function deliverLater(deps: MailDeps, mail: SystemMail): void {
  sendSystemMail(deps.mailer, deps.config, mail).catch((err: unknown) =>
    deps.logger.warn({ err, subject: mail.subject }, 'system mail failed'),
  );
}

/** Right after signup: the token is committed before the response, the mail follows it. */
export async function sendSignupVerification(deps: MailDeps, em: EntityManager, user: User): Promise<void> {
  const token = issueToken(em, user.id, 'VERIFY_EMAIL', TOKEN_TTL_MS.verification);
  await em.flush();
  deliverLater(deps, verificationMail(deps.config, user.email, token));
}

/** Resend of the verification mail; false when the address is already verified and nothing was sent. */
export async function requestVerification(deps: MailDeps, em: EntityManager, userId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: userId });
    if (user.emailVerified) return false;
    const wait = await resendWaitSeconds(tx, user.id, 'VERIFY_EMAIL');
    if (wait > 0) {
      throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'A verification email was sent moments ago', {
        details: { retryAfter: wait },
        headers: { 'Retry-After': String(wait) },
      });
    }
    const token = issueToken(tx, user.id, 'VERIFY_EMAIL', TOKEN_TTL_MS.verification);
    await tx.flush();
    await deliverNow(deps, verificationMail(deps.config, user.email, token));
    return true;
  });
}

/**
 * The mailed link proves the address only to whoever holds both the mail and the account: within a session of
 * the token's own account. From no session or another account's, the account might be someone else's who
 * signed up with the address, so nothing changes and the holder is pointed to setting a password instead
 * (resetPassword), which makes the account theirs (docs/account-emails.md "Verification").
 */
const proofNeedsOwnSession = () =>
  new ApiError(403, 'FORBIDDEN', "This link verifies the address only in a session of the address's own account", {
    suggestion:
      'Set a password with this link instead (POST /auth/reset-password with the same token and a new password): it proves the address, ' +
      'makes the account yours and ends every other session of it. Or log in to the account and open the link again.',
  });

export async function verifyEmail(em: EntityManager, token: string, sessionUserId: string | undefined): Promise<User> {
  return em.transactional(async (tx) => {
    const { row, user } = await usableToken(tx, token, ['VERIFY_EMAIL']);
    if (user.id !== sessionUserId) throw proofNeedsOwnSession();
    await spendToken(tx, row);
    user.emailVerified = true;
    return user;
  });
}

/**
 * Mails a reset link when the address has an account. The caller answers the same way either way; a repeat
 * within the resend interval is dropped silently for the same reason.
 */
export async function requestPasswordReset(deps: MailDeps, em: EntityManager, email: string): Promise<void> {
  const user = await em.findOne(User, { email });
  if (!user || (await resendWaitSeconds(em, user.id, 'RESET_PASSWORD')) > 0) return;
  const token = issueToken(em, user.id, 'RESET_PASSWORD', TOKEN_TTL_MS.passwordReset);
  await em.flush();
  deliverLater(deps, passwordResetMail(deps.config, user.email, token));
}

/**
 * Sets a new password from a reset, verification or invitation link. Receiving the link proves the address,
 * so it also counts as verified; every session issued before ends, so an account someone else made with the
 * address becomes the holder's alone (and a membership waiting for the proof activates with it).
 */
export async function resetPassword(em: EntityManager, token: string, password: string): Promise<User> {
  const hash = await hashPassword(password);
  return em.transactional(async (tx) => {
    const { row, user } = await usableToken(tx, token, ['RESET_PASSWORD', 'VERIFY_EMAIL']);
    await spendToken(tx, row);
    user.passwordHash = hash;
    user.emailVerified = true;
    user.sessionVersion += 1;
    return user;
  });
}
