import type { FieldType } from '../contacts/entities';

/** Contact columns a filter can name, with the type they compare as. */
export const CONTACT_COLUMNS = {
  email: 'string',
  subscribed: 'boolean',
  createdAt: 'date',
  updatedAt: 'date',
} as const satisfies Record<string, FieldType>;
export type ContactColumn = keyof typeof CONTACT_COLUMNS;

/** `email.<activity>` fields read the service events of the email lifecycle (docs/activity.md "Types"). */
export const EMAIL_ACTIVITY_EVENTS = {
  sent: 'email.sent',
  delivered: 'email.delivery',
  opened: 'email.open',
  clicked: 'email.click',
  bounced: 'email.bounce',
  complained: 'email.complaint',
} as const;

export type FieldRef =
  | { kind: 'column'; column: ContactColumn }
  | { kind: 'data'; path: string[] }
  /** `event.<name>`: the contact's events of that name, or (in CONDITION steps) a key of the execution context. */
  | { kind: 'event'; name: string }
  | { kind: 'emailActivity'; eventName: string }
  | { kind: 'segment'; segmentId: string }
  /** `topic.<topicId>`: whether the contact is in the topic (docs/consent.md "Topics"). */
  | { kind: 'topic'; topicId: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isColumn = (field: string): field is ContactColumn => Object.hasOwn(CONTACT_COLUMNS, field);

/** What a filter's `field` names, or undefined when it names nothing a filter can read. */
export function parseField(field: string): FieldRef | undefined {
  if (isColumn(field)) return { kind: 'column', column: field };
  const dot = field.indexOf('.');
  if (dot < 0) return undefined;
  const prefix = field.slice(0, dot);
  const rest = field.slice(dot + 1);
  if (rest === '') return undefined;
  switch (prefix) {
    case 'data': {
      const path = rest.split('.');
      return path.includes('') ? undefined : { kind: 'data', path };
    }
    case 'event':
      return { kind: 'event', name: rest };
    case 'email':
      return Object.hasOwn(EMAIL_ACTIVITY_EVENTS, rest)
        ? { kind: 'emailActivity', eventName: EMAIL_ACTIVITY_EVENTS[rest as keyof typeof EMAIL_ACTIVITY_EVENTS] }
        : undefined;
    case 'segment':
      return UUID.test(rest) ? { kind: 'segment', segmentId: rest.toLowerCase() } : undefined;
    case 'topic':
      return UUID.test(rest) ? { kind: 'topic', topicId: rest.toLowerCase() } : undefined;
    default:
      return undefined;
  }
}
