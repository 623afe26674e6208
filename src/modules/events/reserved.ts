/** api.md "Events" rule 1: names the service emits itself, which callers may not track. */
const RESERVED = [/^email\./, /^contact\.(subscribed|unsubscribed)$/, /^segment\..+\.(entry|exit)$/];

export const isReservedEventName = (name: string) => RESERVED.some((r) => r.test(name));
