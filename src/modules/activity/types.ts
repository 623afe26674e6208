/**
 * What the activity feed lists (docs/activity.md): every type but FAILED is a service event of an email
 * (docs/activity.md "Types"); a failed email has no event, so FAILED is read from the email records.
 */
export const ACTIVITY_TYPES = [
  'SENT',
  'DELIVERED',
  'OPENED',
  'CLICKED',
  'BOUNCED',
  'COMPLAINED',
  'RECEIVED',
  'SUPPRESSED',
  'DEFERRED',
  'FAILED',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export type EventActivityType = Exclude<ActivityType, 'FAILED'>;

export const EVENT_OF: Record<EventActivityType, string> = {
  SENT: 'email.sent',
  DELIVERED: 'email.delivery',
  OPENED: 'email.open',
  CLICKED: 'email.click',
  BOUNCED: 'email.bounce',
  COMPLAINED: 'email.complaint',
  RECEIVED: 'email.received',
  SUPPRESSED: 'email.suppressed',
  DEFERRED: 'email.deferred',
};

export const TYPE_OF_EVENT = new Map(Object.entries(EVENT_OF).map(([type, name]) => [name, type as EventActivityType]));

export const isEventType = (t: ActivityType): t is EventActivityType => t !== 'FAILED';
