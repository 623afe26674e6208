import { z } from 'zod';
import { fallbackParam } from '../../http/fallback-param';
import { PageLimit, cursorPage } from '../../http/cursor';
import { Email } from '../users/schemas';
import { FIELD_TYPES } from './entities';
import { dataLimitIssues } from './custom-fields';
import { MAX_ARRAY_ELEMENTS, MAX_CUSTOM_FIELDS, MAX_DATA_DEPTH, MAX_DATA_KEYS, MAX_KEY_LENGTH, MAX_PATH_LENGTH } from './data-limits';

/**
 * A `data` object: JSON values by key; the custom-field rules decide what is stored. Text with NUL never
 * gets here: the body pipeline refuses it (src/http/well-formed.ts).
 */
export const ContactData = z
  .preprocess(
    (data, ctx) => {
      // The limits come first: a value beyond them is refused before its every element is validated.
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
      for (const issue of dataLimitIssues(data as Record<string, unknown>))
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, params: { code: issue.code, limit: true } });
      return data;
    },
    z.record(z.string().min(1), z.json()),
  )
  .describe(
    'Custom fields, patched: null deletes a key, "" is ignored, { value, persistent: false } is used for this request only. ' +
      `At most ${MAX_DATA_KEYS} keys, nested keys included; keys of at most ${MAX_KEY_LENGTH} characters; paths at most ${MAX_DATA_DEPTH} keys deep; ` +
      `arrays of at most ${MAX_ARRAY_ELEMENTS} elements; ` +
      `a project has at most ${MAX_CUSTOM_FIELDS} distinct custom fields`,
  );

export const ContactIdParams = z.object({ id: z.uuid() });

export const ContactResponse = z.object({
  id: z.uuid(),
  email: z.email(),
  subscribed: z.boolean(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** A contact as the list and GET /contacts/{id} show it: with whether its address is suppressed, and why. */
export const ContactView = ContactResponse.extend({
  suppression: z
    .object({
      reason: z.enum(['BOUNCE', 'COMPLAINT']).describe('BOUNCE: a permanent bounce; COMPLAINT: marked as spam'),
      since: z.iso.datetime(),
    })
    .nullable()
    .describe('Set while the address is suppressed: marketing is not sent to it and a bulk subscribe skips it (docs/bounces.md)'),
});

export const UpsertContactBody = z
  .object({
    email: Email,
    subscribed: z.boolean().optional().describe('Default true for a new contact; omitted keeps an existing state'),
    data: ContactData.optional(),
    doubleOptIn: z
      .boolean()
      .optional()
      .describe('Subscribe only once the contact follows the link mailed to it (docs/consent.md "Double opt-in"); leave out subscribed'),
    confirmationTemplateId: z
      .uuid()
      .optional()
      .describe('With doubleOptIn: the template of the confirmation email; it must show {{ confirmUrl }}'),
  })
  .superRefine((b, ctx) => {
    if (!b.doubleOptIn) return;
    if (b.subscribed !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['subscribed'],
        message: 'Leave out subscribed with doubleOptIn: the contact is subscribed once it confirms',
      });
    }
    if (b.confirmationTemplateId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['confirmationTemplateId'], message: 'confirmationTemplateId is required with doubleOptIn' });
    }
  });

export const UpsertContactResponse = ContactResponse.extend({
  _meta: z.object({
    isNew: z.boolean(),
    isUpdate: z.boolean(),
    confirmation: z
      .object({
        status: z
          .enum(['SENT', 'RESENT', 'NOT_RESENT'])
          .describe(
            'SENT: a new confirmation was mailed; RESENT: the pending one was mailed again; NOT_RESENT: it was mailed within the hour',
          ),
        expiresAt: z.iso.datetime(),
      })
      .optional()
      .describe('With doubleOptIn only'),
  }),
});

export const UpdateContactBody = z.object({
  email: Email.optional(),
  subscribed: z.boolean().optional(),
  data: ContactData.optional(),
});

export const LIST_SORTS = ['createdAt', 'email'] as const;

export const ListContactsQuery = z.object({
  limit: PageLimit,
  cursor: z.string().optional(),
  search: z.string().max(320).optional().describe('Case-insensitive substring of the email'),
  subscribed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  sort: fallbackParam(LIST_SORTS, 'createdAt'),
  dir: fallbackParam(['asc', 'desc'], 'desc'),
});
export type ListContactsQuery = z.infer<typeof ListContactsQuery>;

export const ContactPage = cursorPage(ContactView);

export const LookupBody = z.object({
  emails: z.array(z.string().max(320)).min(1).max(500, 'At most 500 emails per lookup'),
});

export const LookupResponse = z.object({
  found: z.array(z.object({ id: z.uuid(), email: z.string(), subscribed: z.boolean() })),
  missing: z.array(z.string()),
});

export const FieldParams = z.object({
  field: z
    .string()
    .min(1)
    .max('data.'.length + MAX_PATH_LENGTH)
    .describe('A standard field (email, subscribed, createdAt, updatedAt) or data.<key>'),
});

export const FieldDescriptor = z.object({
  field: z.string(),
  type: z.enum(FIELD_TYPES),
  isCustom: z.boolean(),
  coverage: z.number().min(0).max(1).describe('Share of contacts that have the field set'),
});

export const FieldsResponse = z.object({ fields: z.array(FieldDescriptor) });

/** A path within the limits of `data` (data-limits.ts): 1-5 keys of 1-100 characters. */
const FieldPath = z
  .string()
  .transform((s) => (s.startsWith('data.') ? s.slice('data.'.length) : s))
  .refine((key) => key !== '' && key.split('.').every((part) => part !== '' && part.length <= MAX_KEY_LENGTH), {
    message: `Each key of the path is 1-${MAX_KEY_LENGTH} characters`,
    params: { code: 'key_too_long' },
  })
  .refine((key) => key.split('.').length <= MAX_DATA_DEPTH, {
    message: `A data path is at most ${MAX_DATA_DEPTH} keys deep (data.a.b.c.d.e)`,
    params: { code: 'too_deep' },
  });

export const CreateFieldBody = z.object({
  field: FieldPath.describe('data.<key> or a bare <key>; dots step into nested objects'),
  type: z.enum(FIELD_TYPES).describe('The type the field keeps (rule 9), whatever values are written later'),
});

export const FieldValuesResponse = z.object({
  field: z.string(),
  values: z.array(z.object({ value: z.unknown(), count: z.number().int() })),
});

export const DeleteFieldResponse = z.object({
  field: z.string(),
  deletedFrom: z.number().int().describe('Contacts the field was removed from'),
});
