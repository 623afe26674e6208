import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { connectWithoutNagle } from './no-delay-socket';
import { smtpSettings } from './smtp-settings';

export type Mailer = Transporter<SMTPPool.SentMessageInfo>;

/**
 * The pooled SMTP transport of the platform's own mail (account emails, test sends), from SMTP_URL. Project
 * email goes through the delivery pump's own client instead (src/mail/smtp/), which can hold a message back
 * until the last moment.
 */
export function createMailer(smtpUrl: string, maxConnections: number): Mailer {
  const s = smtpSettings(smtpUrl);
  return nodemailer.createTransport({
    pool: true,
    maxConnections,
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.auth,
    tls: { rejectUnauthorized: s.rejectUnauthorized },
    ignoreTLS: s.ignoreTLS,
    getSocket: (_options, callback) => connectWithoutNagle(s.host, s.port, callback),
  });
}
