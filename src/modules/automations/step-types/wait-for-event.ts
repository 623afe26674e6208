import { z } from 'zod';
import type { WaitForEventConfig } from '../../../../workflows/automation/definition';
import { EventName, MAX_WAIT_SECONDS } from './limits';
import type { ApiStepType } from './step-type';

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

export const waitForEvent: ApiStepType<'WAIT_FOR_EVENT'> = {
  config: WaitForEvent,
  // Without a timeout it waits for the event alone: null.
  resumesAt: (started, config) => `${started} + (${config} ->> 'timeout')::float8 * interval '1 second'`,
  references: (config, subject) => subject.kind === 'event' && config.eventName === subject.name,
};
