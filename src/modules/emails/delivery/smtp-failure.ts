import { SmtpError } from '../../../mail/smtp/errors';

/** What a failed SMTP hand-off means for the email. */
export interface SmtpFailure {
  /** The server refused this message for good (a 5xx reply): retrying cannot help. */
  permanent: boolean;
  /** The server's reply when there was one, else what went wrong on the way. */
  reason: string;
}

/**
 * A 5xx reply to the envelope or the data refuses the message permanently. Everything else is transient:
 * 4xx replies, connection failures and timeouts, rejected SMTP credentials (EAUTH, even as a 5xx: a fault of
 * the deployment's relay settings, not of the message, which must not fail every queued email), and a
 * hand-over the database could not take.
 */
export function classifySmtpFailure(err: unknown): SmtpFailure {
  if (!(err instanceof SmtpError)) return { permanent: false, reason: (err instanceof Error ? err.message : String(err)).slice(0, 1000) };
  const code = err.responseCode ?? 0;
  return { permanent: code >= 500 && code < 600 && err.code !== 'EAUTH', reason: (err.response ?? err.message).slice(0, 1000) };
}
