/** Where and how to reach the SMTP server, read from SMTP_URL (docs/delivery.md). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. Otherwise STARTTLS whenever the server offers it, unless `ignoreTLS`. */
  secure: boolean;
  ignoreTLS: boolean;
  /** Loopback capture servers and private relays often present self-signed certificates. */
  rejectUnauthorized: boolean;
  auth: { user: string; pass: string } | undefined;
}

export function smtpSettings(smtpUrl: string): SmtpSettings {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: Number(url.port || (secure ? 465 : 25)),
    secure,
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
    rejectUnauthorized: url.searchParams.get('tlsRejectUnauthorized') !== 'false',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
  };
}
