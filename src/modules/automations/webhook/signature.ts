import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-postwire-signature';
export const DELIVERY_HEADER = 'x-postwire-delivery';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes (empty without a body) under the workflow's secret. */
export const signatureOf = (secret: string, body: string | null) =>
  `sha256=${createHmac('sha256', secret)
    .update(body ?? '')
    .digest('hex')}`;
