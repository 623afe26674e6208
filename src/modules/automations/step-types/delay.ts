import { z } from 'zod';
import { DELAY_UNITS, type DelayConfig } from '../../../../workflows/automation/definition';
import { MAX_WAIT_SECONDS } from './limits';
import type { ApiStepType } from './step-type';

const UNIT_SECONDS = { minutes: 60, hours: 3_600, days: 86_400 } as const;

const Delay: z.ZodType<DelayConfig> = z
  .object({
    amount: z.number().positive('amount must be greater than 0').finite(),
    unit: z.enum(DELAY_UNITS),
  })
  .refine((c) => c.amount * UNIT_SECONDS[c.unit] <= MAX_WAIT_SECONDS, {
    message: 'A delay is at most 365 days',
    path: ['amount'],
  });

export const delay: ApiStepType<'DELAY'> = {
  config: Delay,
  resumesAt: (started, config) =>
    `${started} + (${config} ->> 'amount')::float8 * case ${config} ->> 'unit' when 'minutes' then 60 when 'hours' then 3600 else 86400 end * interval '1 second'`,
};
