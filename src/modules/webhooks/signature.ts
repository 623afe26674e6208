import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`
 * keyed by the base64 part of each `whsec_` secret, space-separated when two secrets sign (a rotation).
 */
export function standardWebhookHeaders(secrets: readonly string[], id: string, timestamp: Date, body: string): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  const content = `${id}.${seconds}.${body}`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
        .update(content)
        .digest('base64')}`,
  );
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signatures.join(' ') };
}
