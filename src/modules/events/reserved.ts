/** docs/events.md "Tracking": names the service emits itself, which callers may not track. */
export const RESERVED_EVENT_PATTERNS = [
  /^email\./,
  /^contact\.(subscribed|unsubscribed|confirmed|snoozed|unsnoozed)$/,
  /^contact\.topic\.(joined|left)$/,
  /^form\.submitted$/,
  /^segment\..+\.(entry|exit)$/,
  /^suppression\.(added|removed)$/,
];

export const isReservedEventName = (name: string) => RESERVED_EVENT_PATTERNS.some((r) => r.test(name));
