import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { ContactData } from '../contacts/schemas';
import { Email } from '../users/schemas';
import { isReservedEventName } from './reserved';

export const EventName = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\u0000]*$/, 'Must not contain the NUL character');

export const TrackBody = z.object({
  email: Email.describe('The contact; created (subscribed) when missing'),
  event: EventName.refine((name) => !isReservedEventName(name), {
    message:
      'This event name is reserved for events the service emits (email.*, contact.subscribed|unsubscribed|confirmed|snoozed|unsnoozed, contact.topic.joined|left, form.submitted, segment.<slug>.entry|exit)',
    params: { code: 'reserved_event' },
  }),
  subscribed: z.boolean().optional().describe('Changes the subscription state; omitted keeps it'),
  data: ContactData.optional(),
});

export const TrackResponse = z.object({
  success: z.literal(true),
  data: z.object({ contact: z.uuid(), event: z.uuid(), timestamp: z.iso.datetime() }),
});

export const EventResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  contact: z.object({ id: z.uuid(), email: z.string() }),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});

export const EventPage = cursorPage(EventResponse);

export const ListEventsQuery = z.object({
  limit: PageLimit,
  cursor: z.string().optional(),
  name: z.string().max(255).optional().describe('Only events with this name'),
});

export const ContactEventsQuery = ListEventsQuery.omit({ name: true });

export const EventNameParams = z.object({ eventName: z.string().min(1).max(255) });
export const ContactIdParams = z.object({ contactId: z.string().describe('Contact id (uuid)') });

const NameCount = z.object({ name: z.string(), count: z.number().int(), lastTrackedAt: z.iso.datetime() });

export const EventNamesResponse = z.object({ names: z.array(NameCount) });

export const EventStatsResponse = z.object({
  total: z.number().int(),
  last24Hours: z.number().int(),
  last7Days: z.number().int(),
  last30Days: z.number().int(),
  uniqueNames: z.number().int(),
  uniqueContacts: z.number().int(),
  topEvents: z.array(NameCount).describe('The 10 most frequent names'),
});

export const DeleteEventsResponse = z.object({ name: z.string(), deleted: z.number().int() });
