import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { connectWithoutNagle } from './no-delay-socket';

export type Mailer = Transporter<SMTPPool.SentMessageInfo>;

/**
 * One pooled SMTP transport per process, from SMTP_URL. Each message takes several round trips on its
 * connection, so the delivery pump's throughput grows with the connections it may open (SMTP_MAX_CONNECTIONS).
 */
export function createMailer(smtpUrl: string, maxConnections: number): Mailer {
  const url = new URL(smtpUrl);
  const port = Number(url.port || (url.protocol === 'smtps:' ? 465 : 25));
  return nodemailer.createTransport({
    pool: true,
    maxConnections,
    host: url.hostname,
    port,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // Loopback capture servers and private relays often present self-signed certificates.
    tls: { rejectUnauthorized: url.searchParams.get('tlsRejectUnauthorized') !== 'false' },
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    getSocket: (_options, callback) => connectWithoutNagle(url.hostname, port, callback),
  });
}
