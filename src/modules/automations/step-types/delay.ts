import { z } from 'zod';
import { DELAY_UNITS, type DelayConfig } from '../../../../workflows/automation/definition';
import { LocalTime, MAX_WAIT_SECONDS } from './limits';
import type { ApiStepType } from './step-type';

const UNIT_SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;

const Delay: z.ZodType<DelayConfig> = z
  .object({
    amount: z.number().positive('amount must be greater than 0').finite().optional(),
    unit: z.enum(DELAY_UNITS).optional(),
    until: LocalTime.optional().describe(
      "Then wait until the next such local time in the contact's data.timezone, else the project's timeZone",
    ),
  })
  .refine((c) => c.until !== undefined || (c.amount !== undefined && c.unit !== undefined), {
    message: 'A delay needs amount and unit, or until, or both',
    path: ['amount'],
  })
  .refine((c) => (c.amount === undefined) === (c.unit === undefined), { message: 'amount and unit go together', path: ['unit'] })
  .refine((c) => (c.amount ?? 0) * UNIT_SECONDS[c.unit ?? 'minutes'] <= MAX_WAIT_SECONDS, {
    message: 'A delay is at most 365 days',
    path: ['amount'],
  }) as z.ZodType<DelayConfig>;

export const delay: ApiStepType<'DELAY'> = {
  config: Delay,
  // A DELAY until a local time ends where the contact's zone puts it: not known to SQL, it is stored with the
  // WAITING mark (the execution's resumes_at, which resume-times.ts prefers).
  resumesAt: (started, config) =>
    `case when ${config} ->> 'until' is not null then null else ${started} + (${config} ->> 'amount')::float8 * case ${config} ->> 'unit' when 'minutes' then 60 when 'hours' then 3600 else 86400 end * interval '1 second' end`,
};
