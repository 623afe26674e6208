import type { Answer } from '../../api/types';

export type Endpoint = Answer<'/webhook-endpoints/{id}', 'get'>;
export type Delivery = Answer<'/webhook-endpoints/{id}/test', 'post'>;
export type DeliveryStatus = Delivery['status'];

export const DELIVERY_STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED'];

export const deliveryTone = (status: DeliveryStatus) => (status === 'SUCCEEDED' ? 'good' : status === 'FAILED' ? 'bad' : 'neutral');

/** The events box holds one pattern a line (commas work too); the API takes a list, empty for every event. */
export const eventPatterns = (text: string) =>
  text
    .split(/[\n,]/)
    .map((pattern) => pattern.trim())
    .filter(Boolean);

export const eventsText = (events: string[]) => (events.length === 0 ? 'Every event' : events.join(', '));
