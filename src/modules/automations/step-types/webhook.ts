import { z } from 'zod';
import { WEBHOOK_METHODS, type WebhookConfig } from '../../../../workflows/automation/definition';
import type { ApiStepType } from './step-type';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\u0000]*$/;
/** Set by the service on every request, so a step cannot forge or drop them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'x-postwire-signature',
  'x-postwire-delivery',
  'transfer-encoding',
  'connection',
]);

const Webhook: z.ZodType<WebhookConfig> = z.object({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }).max(2048),
  method: z.enum(WEBHOOK_METHODS).default('POST'),
  headers: z
    .record(
      z
        .string()
        .regex(HEADER_NAME, 'Not a valid header name')
        .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), 'This header is set by the service'),
      z.string().max(998).regex(HEADER_VALUE, 'Header values must not contain CR, LF or NUL'),
    )
    .optional(),
  body: z.json().optional().describe('JSON sent as the body; by default a payload describing the execution and its contact'),
});

export const webhook: ApiStepType<'WEBHOOK'> = { config: Webhook };
