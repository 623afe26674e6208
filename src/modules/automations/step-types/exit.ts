import { z } from 'zod';
import type { ExitConfig } from '../../../../workflows/automation/definition';
import type { ApiStepType } from './step-type';

const Exit: z.ZodType<ExitConfig> = z.object({ reason: z.string().trim().max(500).optional() });

export const exit: ApiStepType<'EXIT'> = { config: Exit };
