import { z } from 'zod';
import { offsetPage, offsetPageFields } from '../../http/offset-page';
import { resourceId } from '../../http/resource-id';
import { DELIVERY_STATUSES } from './entities';

export const MAX_PATTERNS = 50;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname !== '';
  } catch {
    return false;
  }
};

export const EndpointUrl = z
  .string()
  .max(2048)
  .refine(isHttpUrl, { message: 'Must be an http or https URL without credentials' })
  .describe('Where events are POSTed; its host must be on the public internet (the WEBHOOK step rules)');

export const EventPattern = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^*\s\u0000-\u001f]*\*?$/, 'An event name, or a prefix ending in a single * (e.g. "email.*", "*")')
  .describe('An event name (`signup`) or a prefix pattern ending in `*` (`email.*`; `*` alone selects everything)');

const Events = z
  .array(EventPattern)
  .max(MAX_PATTERNS)
  .transform((list) => [...new Set(list)])
  .describe('Events the endpoint receives; empty means every event');

export const CreateEndpointBody = z.object({
  url: EndpointUrl,
  description: z.string().max(500).nullable().optional(),
  events: Events.default([]),
  enabled: z.boolean().default(true),
});

export const UpdateEndpointBody = z
  .object({
    url: EndpointUrl.optional(),
    description: z.string().max(500).nullable().optional(),
    events: Events.optional(),
    enabled: z.boolean().optional().describe('true resumes delivery where it stopped; false pauses it'),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to change', path: ['body'] });

export const EndpointIdParams = z.object({ id: resourceId('NOT_FOUND') });

export const EndpointResponse = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  secret: z.string().describe('whsec_…: in full only in the responses that create or rotate it, masked afterwards'),
  disabledReason: z.string().nullable().describe('Why delivery disabled the endpoint (after 3 days of failures); null otherwise'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type EndpointResponse = z.infer<typeof EndpointResponse>;

export const EndpointList = z.object({ data: z.array(EndpointResponse) });

const Status = z.enum(DELIVERY_STATUSES);

export const DeliveryResponse = z.object({
  id: z.uuid(),
  eventId: z.uuid().nullable().describe('null for a test message'),
  type: z.string(),
  status: Status,
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

export const DeliveriesQuery = z.object({
  status: Status.optional().describe('Only deliveries in this status; an unrecognised value is a 400'),
  ...offsetPageFields,
});

export const DeliveryPage = offsetPage(DeliveryResponse);

export const ReplayBody = z.object({
  since: z.iso.datetime({ offset: true }).describe('Events recorded at or after this time (at most 30 days ago) are delivered again'),
});

export const ReplayResponse = z.object({
  queued: z.number().int().describe('Deliveries added to the queue, after those already pending'),
  nextSince: z.iso.datetime().nullable().describe('Set when more events matched than one replay takes: pass it as `since` to continue'),
});
