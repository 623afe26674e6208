import { z } from 'zod';

/** Email categories with their own monthly cap (docs/billing.md "Limits"). */
export const BILLING_CATEGORIES = ['TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW', 'INBOUND'] as const;
export type BillingCategory = (typeof BILLING_CATEGORIES)[number];

const Cap = z.int().min(0).nullable().describe('Emails per calendar month; null is unlimited');

const perCategory = <T extends z.ZodType>(schema: T) =>
  z.object({ TRANSACTIONAL: schema, CAMPAIGN: schema, WORKFLOW: schema, INBOUND: schema });

export const BillingLimits = perCategory(Cap);
export type BillingLimits = z.infer<typeof BillingLimits>;

export const BillingLimitsResponse = z.object({ limits: BillingLimits });

export const BillingLimitsBody = z.object({
  limits: BillingLimits.partial().strict().describe('Categories left out keep their cap'),
});

export const Consumption = z.object({
  used: z.number().int(),
  limit: Cap,
  remaining: z.number().int().nullable().describe('null when unlimited'),
});

export const ConsumptionResponse = z.object({
  period: z.object({ start: z.iso.datetime(), end: z.iso.datetime() }),
  total: z.number().int(),
  categories: perCategory(Consumption),
});
export type ConsumptionResponse = z.infer<typeof ConsumptionResponse>;

export const ProviderParams = z.object({ provider: z.string() });
