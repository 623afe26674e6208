import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { UsageResponse, usageOf, type ReferenceSource } from '../usage/references';
import { createField, deleteField, fieldValues, listFields, parseField } from './fields';
import {
  ContactIdParams,
  ContactPage,
  ContactResponse,
  ContactView,
  CreateFieldBody,
  FieldDescriptor,
  DeleteFieldResponse,
  FieldParams,
  FieldValuesResponse,
  FieldsResponse,
  ListContactsQuery,
  LookupBody,
  LookupResponse,
  UpdateContactBody,
  UpsertContactBody,
  UpsertContactResponse,
} from './schemas';
import { contactViews, serializeContact } from './serialize';
import { deleteContact, getContact, listContacts, lookupContacts } from './service';
import { updateContact, upsertContact } from './write';
import type { DoubleOptIn } from './double-opt-in';

const tag = 'Contacts';

// Literal paths (/contacts/fields, /contacts/lookup) come before /contacts/{id}, which would claim them.
export function contactRoutes(_deps: Deps, references: readonly ReferenceSource[], doubleOptIn: DoubleOptIn): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/contacts',
      tag,
      summary: 'List contacts, newest first by default, with cursor pagination, email search and a subscription filter',
      auth: 'secret',
      query: ListContactsQuery,
      responses: { 200: { description: 'A cursor page of contacts', schema: ContactPage } },
      handler: async (ctx, { query }) => {
        const projectId = requireProject(ctx).id;
        const page = await listContacts(ctx.state.em, projectId, query);
        ctx.body = {
          data: await contactViews(ctx.state.em, projectId, page.contacts),
          cursor: page.cursor,
          hasMore: page.hasMore,
          total: page.total,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/contacts',
      tag,
      summary: 'Create or update the contact with this email; data is patched under the custom-field rules',
      auth: 'secret',
      bucket: 'contacts',
      body: UpsertContactBody,
      plainBodyErrors: true,
      responses: {
        200: { description: 'An existing contact, updated', schema: UpsertContactResponse },
        201: { description: 'A new contact', schema: UpsertContactResponse },
        422: {
          description:
            "VALIDATION_ERROR: a limit of data, or (doubleOptIn) a confirmation template that is not the project's or lacks {{ confirmUrl }}",
        },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached to start a double opt-in confirmation; nothing is stored' },
      },
      handler: async (ctx, { body }) => {
        const projectId = requireProject(ctx).id;
        const { doubleOptIn: confirm, confirmationTemplateId, ...input } = body;
        if (!confirm) {
          const { contact, isNew } = await upsertContact(ctx.state.em, projectId, input, { defaultSubscribed: true });
          ctx.status = isNew ? 201 : 200;
          ctx.body = { ...serializeContact(contact), _meta: { isNew, isUpdate: !isNew } };
          return;
        }
        // A new contact waits unsubscribed for its confirmation; an existing one keeps its state until then.
        const { contact, isNew, confirmation } = await ctx.state.em.transactional(async (tx) => {
          const written = await upsertContact(tx, projectId, input, { defaultSubscribed: false });
          return { ...written, confirmation: await doubleOptIn(tx, projectId, written.contact, confirmationTemplateId!) };
        });
        ctx.status = isNew ? 201 : 200;
        ctx.body = { ...serializeContact(contact), _meta: { isNew, isUpdate: !isNew, confirmation } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/contacts/lookup',
      tag,
      summary: 'Which of up to 500 emails are contacts of the project',
      auth: 'secret',
      agent: { readOnly: true },
      body: LookupBody,
      responses: { 200: { description: 'Found contacts and missing emails', schema: LookupResponse } },
      handler: async (ctx, { body }) => {
        ctx.body = await lookupContacts(ctx.state.em, requireProject(ctx).id, body.emails);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contacts/fields',
      tag,
      summary: 'Standard and custom fields with their type and the share of contacts that have them',
      auth: 'secret',
      responses: { 200: { description: 'Field descriptors', schema: FieldsResponse } },
      handler: async (ctx) => {
        ctx.body = { fields: await listFields(ctx.state.em, requireProject(ctx).id) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/contacts/fields',
      tag,
      summary: 'Declare a custom field and its type before any contact has it',
      auth: 'secret',
      bucket: 'contacts',
      body: CreateFieldBody,
      responses: {
        201: { description: 'The new field, on no contact yet', schema: FieldDescriptor },
        400: { description: 'BAD_REQUEST: a standard or reserved key (email, id, …)' },
        409: { description: 'CONFLICT: the field exists, or lies under or over one' },
        422: { description: 'VALIDATION_ERROR: a path beyond the limits of data, or the project has 1,000 fields' },
      },
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await createField(ctx.state.em, requireProject(ctx).id, body.field, body.type);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contacts/fields/{field}/values',
      tag,
      summary: 'The 100 most frequent values of a field, most frequent first',
      auth: 'secret',
      params: FieldParams,
      responses: {
        200: { description: 'Values with their counts', schema: FieldValuesResponse },
        404: { description: 'NOT_FOUND: no such field' },
      },
      handler: async (ctx, { params }) => {
        const values = await fieldValues(ctx.state.em, requireProject(ctx).id, params.field);
        ctx.body = { field: parseField(params.field).field, values };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contacts/fields/{field}/usage',
      tag,
      summary: 'Segments, campaigns and workflows whose conditions reference the field',
      auth: 'secret',
      params: FieldParams,
      responses: { 200: { description: 'Referrers by area', schema: UsageResponse } },
      handler: async (ctx, { params }) => {
        const { field } = parseField(params.field);
        ctx.body = await usageOf(ctx.state.em, references, requireProject(ctx).id, { kind: 'field', field });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/contacts/fields/{field}',
      tag,
      summary: 'Remove a custom field from every contact; conditions that reference it stop matching',
      auth: 'secret',
      bucket: 'contacts',
      params: FieldParams,
      responses: {
        200: { description: 'The field and how many contacts had it', schema: DeleteFieldResponse },
        400: { description: 'BAD_REQUEST: a standard field' },
        404: { description: 'NOT_FOUND: no such field' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = await deleteField(ctx.state.em, requireProject(ctx).id, params.field);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contacts/{id}',
      tag,
      summary: 'One contact',
      auth: 'secret',
      params: ContactIdParams,
      responses: { 200: { description: 'The contact, with its suppression', schema: ContactView } },
      handler: async (ctx, { params }) => {
        const projectId = requireProject(ctx).id;
        const [view] = await contactViews(ctx.state.em, projectId, [await getContact(ctx.state.em, projectId, params.id)]);
        ctx.body = view;
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/contacts/{id}',
      tag,
      summary: 'Change email, subscription or data (patched); a subscription change emits contact.subscribed/unsubscribed',
      auth: 'secret',
      bucket: 'contacts',
      params: ContactIdParams,
      body: UpdateContactBody,
      responses: {
        200: { description: 'The updated contact', schema: ContactResponse },
        409: { description: 'CONFLICT: another contact of the project has this email' },
      },
      handler: async (ctx, { params, body }) => {
        const { contact } = await updateContact(ctx.state.em, requireProject(ctx).id, params.id, body);
        ctx.body = serializeContact(contact);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/contacts/{id}',
      tag,
      summary: 'Delete a contact permanently, with its events',
      auth: 'secret',
      bucket: 'contacts',
      params: ContactIdParams,
      responses: { 204: { description: 'Deleted; no body' } },
      handler: async (ctx, { params }) => {
        await deleteContact(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
