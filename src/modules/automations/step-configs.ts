import { z } from 'zod';
import { ContactData } from '../contacts/schemas';
import { FilterTreeSchema, filterTreeInput } from '../filters/schemas';
import {
  DELAY_UNITS, WEBHOOK_METHODS,
  type DelayConfig, type ExitConfig, type SendEmailConfig, type StepType, type UpdateContactConfig, type WaitForEventConfig,
  type WebhookConfig,
} from '../../../workflows/automation/definition';

/** decisions.md: a DELAY is at most 365 days; a WAIT_FOR_EVENT timeout is held to the same bound. */
export const MAX_WAIT_SECONDS = 365 * 86_400;
const UNIT_SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;

export const EventName = z.string().trim().min(1, 'eventName is required').max(255);

const SendEmail: z.ZodType<SendEmailConfig> = z
  .object({
    templateId: z.uuid().describe('A template of this project'),
    recipient: z
      .object({
        type: z.enum(['CONTACT', 'CUSTOM']),
        email: z.email().max(320).optional().describe('Required for CUSTOM'),
      })
      .optional()
      .describe("Default: the execution's contact"),
  })
  .refine((c) => c.recipient?.type !== 'CUSTOM' || c.recipient.email !== undefined, {
    message: 'recipient.email is required when recipient.type is CUSTOM',
    path: ['recipient', 'email'],
  });

const Delay: z.ZodType<DelayConfig> = z
  .object({
    amount: z.number().positive('amount must be greater than 0').finite(),
    unit: z.enum(DELAY_UNITS),
  })
  .refine((c) => c.amount * UNIT_SECONDS[c.unit] <= MAX_WAIT_SECONDS, {
    message: 'A delay is at most 365 days',
    path: ['amount'],
  });

const WaitForEvent: z.ZodType<WaitForEventConfig> = z.object({
  eventName: EventName,
  timeout: z
    .number()
    .int('timeout is a whole number of seconds')
    .positive()
    .max(MAX_WAIT_SECONDS, 'timeout is at most 365 days')
    .optional()
    .describe('Seconds; without it the step waits for as long as it takes'),
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;
/** Set by the service on every request, so a step cannot forge or drop them. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'x-postwire-signature', 'x-postwire-delivery', 'transfer-encoding', 'connection']);

const Webhook: z.ZodType<WebhookConfig> = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http or https URL' })
    .max(2048),
  method: z.enum(WEBHOOK_METHODS).default('POST'),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, 'Not a valid header name').refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), 'This header is set by the service'),
      z.string().max(998).regex(HEADER_VALUE, 'Header values must not contain CR, LF or NUL'),
    )
    .optional(),
  body: z.json().optional().describe('JSON sent as the body; by default a payload describing the execution and its contact'),
});

const UpdateContact: z.ZodType<UpdateContactConfig> = z
  .object({ data: ContactData.optional(), subscribed: z.boolean().optional() })
  .refine((c) => c.data !== undefined || c.subscribed !== undefined, 'Give data, subscribed or both');

const Exit: z.ZodType<ExitConfig> = z.object({ reason: z.string().trim().max(500).optional() });

/**
 * Each type's config as requests give it. CONDITION takes a filter tree, checked in the handler against the
 * project (strictly, with execution context) so that a bad tree is a 400 naming the problem.
 */
export const STEP_CONFIGS: Record<StepType, z.ZodType> = {
  SEND_EMAIL: SendEmail,
  DELAY: Delay,
  WAIT_FOR_EVENT: WaitForEvent,
  CONDITION: filterTreeInput(),
  WEBHOOK: Webhook,
  UPDATE_CONTACT: UpdateContact,
  EXIT: Exit,
};

/** The same, as responses show them. */
export const STEP_CONFIG_OUTPUTS: Record<StepType, z.ZodType> = { ...STEP_CONFIGS, CONDITION: FilterTreeSchema };
