import type { Disposition } from './entities';

/** An email as handed to compose.ts: what it is built from, with what sending adds (decorate.ts). */

export interface Mailbox {
  email: string;
  name?: string | null;
}

export interface OutgoingAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  contentId?: string | null;
  disposition: Disposition;
}

export interface OutgoingEmail {
  id: string;
  to: Mailbox;
  /** In the Cc header and the envelope. */
  cc?: Mailbox[];
  /** In the envelope only: Bcc never appears in the message. */
  bcc?: Mailbox[];
  /** Its domain must be a domain of the project: the pump signs with that domain's DKIM key. */
  from: Mailbox;
  replyTo?: string | null;
  subject: string;
  html: string;
  text?: string | null;
  /** Extra header fields, already checked (names and values without CR or LF). */
  headers?: Record<string, string>;
  attachments?: OutgoingAttachment[];
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether the email's HTML and text are all ASCII: then its text parts are quoted-printable (compose.ts). */
export const hasAsciiText = (email: OutgoingEmail) => !NON_ASCII.test(email.html) && !NON_ASCII.test(email.text ?? '');
