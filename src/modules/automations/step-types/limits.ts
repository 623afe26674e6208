import { z } from 'zod';

/** docs/automations.md "Step types": a DELAY is at most 365 days; a WAIT_FOR_EVENT timeout is held to the same bound. */
export const MAX_WAIT_SECONDS = 365 * 86_400;

export const EventName = z.string().trim().min(1, 'eventName is required').max(255);

/** A local time of day, `HH:MM` (DELAY `until`, SEND_EMAIL quiet hours). */
export const LocalTime = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'A local time of day is HH:MM (00:00 to 23:59)');
