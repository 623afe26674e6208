import { z } from 'zod';

export const Email = z
  .email()
  .max(320)
  .transform((e) => e.toLowerCase());
export const Password = z.string().min(8, 'Password must be at least 8 characters').max(1024);

// A host name's label: letters, digits and inner hyphens, at most 63 characters (RFC 1035, RFC 5321).
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** What zod's pattern does not check and SMTP refuses: a local part over 64 characters, a label that is no host name label. */
const deliverable = (email: string) => {
  const at = email.lastIndexOf('@');
  return (
    at <= 64 &&
    email
      .slice(at + 1)
      .split('.')
      .every((label) => LABEL.test(label))
  );
};

/**
 * An account's address: the users table holds at most 255 characters (a contact's email may have 320), and
 * mail goes to it while the request waits (verification, invitation), so it must be one SMTP accepts.
 */
export const AccountEmail = z
  .email()
  .max(255)
  .refine(deliverable, 'The part before @ is at most 64 characters; each part of the domain at most 63 letters, digits or inner hyphens')
  .transform((e) => e.toLowerCase());

export const Credentials = z.object({ email: AccountEmail, password: Password });

export const UserResponse = z.object({
  id: z.uuid(),
  email: z.email(),
  emailVerified: z.boolean(),
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
