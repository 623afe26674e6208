import { z } from 'zod';
import type { RandomSplitConfig } from '../../../../workflows/automation/definition';
import type { ApiStepType } from './step-type';

const RandomSplit: z.ZodType<RandomSplitConfig> = z.object({
  branches: z
    .array(
      z.object({
        weight: z
          .number()
          .int('weight must be a whole number')
          .min(1)
          .max(1000)
          .describe("The branch's share is its weight over their sum"),
        label: z.string().trim().max(100).optional(),
      }),
    )
    .min(2, 'A split has 2 to 5 branches')
    .max(5, 'A split has 2 to 5 branches')
    .describe('The branches, named A to E in this order; transitions leave the step by these names'),
});

export const randomSplit: ApiStepType<'RANDOM_SPLIT'> = { config: RandomSplit };
