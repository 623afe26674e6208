import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';
import type { FormField } from './fields';

/** A hosted signup form (docs/consent.md "Signup forms"). */
export const SignupForm = defineEntity({
  name: 'SignupForm',
  tableName: 'signup_forms',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    name: p.text(),
    /** The heading of the hosted page. */
    title: p.text(),
    fields: p.json<FormField[]>(),
    /** Topics a signup joins. */
    topicIds: p.json<string[]>(),
    doubleOptIn: p.boolean(),
    confirmationTemplateId: p.uuid().nullable(),
    redirectUrl: p.text().nullable(),
    successMessage: p.text().nullable(),
    submitLabel: p.text(),
  },
});
export type SignupForm = InferEntity<typeof SignupForm>;
