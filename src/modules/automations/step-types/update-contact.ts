import { z } from 'zod';
import type { UpdateContactConfig } from '../../../../workflows/automation/definition';
import { ContactData } from '../../contacts/schemas';
import type { ApiStepType } from './step-type';

const UpdateContact: z.ZodType<UpdateContactConfig> = z
  .object({ data: ContactData.optional(), subscribed: z.boolean().optional() })
  .refine((c) => c.data !== undefined || c.subscribed !== undefined, 'Give data, subscribed or both');

export const updateContact: ApiStepType<'UPDATE_CONTACT'> = {
  config: UpdateContact,
  references: (config, subject) =>
    subject.kind === 'field' && subject.field.startsWith('data.') && Object.hasOwn(config.data ?? {}, subject.field.slice('data.'.length)),
};
