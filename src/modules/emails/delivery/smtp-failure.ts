/** What a failed SMTP hand-off means for the email. */
export interface SmtpFailure {
  /** The server refused this message for good (a 5xx reply): retrying cannot help. */
  permanent: boolean;
  /** The server's reply when there was one, else what went wrong on the way. */
  reason: string;
}

interface NodemailerError {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/**
 * A 5xx reply to the envelope or the data refuses the message permanently. Everything else is transient:
 * 4xx replies, connection failures and timeouts, and rejected credentials (EAUTH, even as a 5xx), which are
 * a fault of the deployment's relay settings, not of the message, and must not fail every queued email.
 */
export function classifySmtpFailure(err: unknown): SmtpFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as NodemailerError;
  const code = e.responseCode ?? 0;
  const permanent = code >= 500 && code < 600 && e.code !== 'EAUTH';
  const reason = (e.response ?? e.message ?? String(err)).slice(0, 1000);
  return { permanent, reason };
}
