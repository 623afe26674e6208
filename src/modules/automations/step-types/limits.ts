import { z } from 'zod';

/** docs/automations.md "Step types": a DELAY is at most 365 days; a WAIT_FOR_EVENT timeout is held to the same bound. */
export const MAX_WAIT_SECONDS = 365 * 86_400;

export const EventName = z.string().trim().min(1, 'eventName is required').max(255);
