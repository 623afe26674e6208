import { z } from 'zod';

export const Email = z
  .email()
  .max(320)
  .transform((e) => e.toLowerCase());
export const Password = z.string().min(8, 'Password must be at least 8 characters').max(1024);

/**
 * An account's address: the users table holds at most 255 characters (a contact's email may have 320), and
 * mail goes to it while the request waits (verification, invitation), so it must be one SMTP accepts. zod's
 * address pattern, with each domain label a host name label (letters, digits and inner hyphens, at most 63: RFC
 * 1035, RFC 5321), and at most 64 characters before the @. Two patterns without flags or lookaheads, so that
 * the OpenAPI document states exactly what is accepted.
 */
const ACCOUNT_ADDRESS =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const LOCAL_PART = /^[^@]{1,64}@/;
const UNDELIVERABLE = 'The part before @ is at most 64 characters; each part of the domain at most 63 letters, digits or inner hyphens';

export const AccountEmail = z
  .string()
  .max(255)
  .regex(ACCOUNT_ADDRESS, {
    error: (issue) => (z.email().safeParse(issue.input).success ? UNDELIVERABLE : 'Invalid email address'),
    abort: true,
  })
  .regex(LOCAL_PART, UNDELIVERABLE)
  .transform((e) => e.toLowerCase());

export const Credentials = z.object({ email: AccountEmail, password: Password });

export const UserResponse = z.object({
  id: z.uuid(),
  email: z.email(),
  emailVerified: z.boolean(),
});

export const SessionResponse = z.object({
  user: UserResponse.nullable().describe('The logged-in user; null without a session cookie, or with one that has expired or ended'),
});

/** A token from an emailed link: base64url of 32 random bytes. */
const LinkToken = z.string().min(1, 'Token is required').max(200);

export const VerifyEmailBody = z.object({ token: LinkToken });
export const PasswordResetRequestBody = z.object({ email: Email });
export const ResetPasswordBody = z.object({ token: LinkToken, password: Password });

export const ActionResult = z.object({ success: z.literal(true), message: z.string() });

export const OAuthConfigResponse = z.object({
  providers: z.array(z.string()).describe('Names of the OAuth providers users can log in with'),
});
