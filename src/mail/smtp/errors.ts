import type { SmtpReply } from './replies';

/**
 * EENVELOPE / EMESSAGE: the server refused the sender, a recipient or the message (responseCode says how).
 * EAUTH: it refused our credentials. ECONNECTION, ETIMEDOUT, ETLS, EPROTOCOL: the connection failed.
 */
export type SmtpErrorCode = 'EENVELOPE' | 'EMESSAGE' | 'EAUTH' | 'ECONNECTION' | 'ETIMEDOUT' | 'ETLS' | 'EPROTOCOL';

/** A failed SMTP exchange, shaped as nodemailer's errors are (code, responseCode, response). */
export class SmtpError extends Error {
  readonly responseCode: number | undefined;
  readonly response: string | undefined;

  constructor(
    readonly code: SmtpErrorCode,
    message: string,
    reply?: SmtpReply,
  ) {
    super(reply ? `${message}: ${reply.text}` : message);
    this.name = 'SmtpError';
    this.responseCode = reply?.code;
    this.response = reply?.text;
  }
}
