import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';

export type Mailer = Transporter<SMTPPool.SentMessageInfo>;

/** One pooled SMTP transport per process, from SMTP_URL. */
export function createMailer(smtpUrl: string): Mailer {
  const url = new URL(smtpUrl);
  return nodemailer.createTransport({
    pool: true,
    maxConnections: 8,
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // Loopback capture servers and private relays often present self-signed certificates.
    tls: { rejectUnauthorized: url.searchParams.get('tlsRejectUnauthorized') !== 'false' },
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
  });
}
