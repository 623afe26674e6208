import { SmtpPool } from './smtp/pool';
import { smtpSettings } from './smtp-settings';

export type Mailer = SmtpPool;

/**
 * The process's SMTP connections to SMTP_URL, shared by the delivery pump and the platform's own mail. Each
 * message takes a few round trips on its connection, so delivery throughput grows with SMTP_MAX_CONNECTIONS.
 */
export const createMailer = (smtpUrl: string, maxConnections: number): Mailer => new SmtpPool(smtpSettings(smtpUrl), maxConnections);
