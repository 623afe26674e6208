import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { CreateFormBody, FormIdParams, FormPage, FormResponse, ListFormsQuery, UpdateFormBody } from './schemas';
import { createForm, deleteForm, findForm, listForms, serializeForm, updateForm } from './service';

const tag = 'Forms';
const missing = { 404: { description: 'NOT_FOUND: no such form in the project' } };
const invalid = {
  422: { description: "VALIDATION_ERROR: a bad field, a topic or template that is not the project's, double opt-in without a template" },
};

/** Signup forms (docs/consent.md "Signup forms"). */
export function formRoutes(deps: Deps): RouteDef[] {
  const show = (form: Parameters<typeof serializeForm>[1]) => serializeForm(deps.config.PUBLIC_URL, form);
  return [
    defineRoute({
      method: 'get',
      path: '/forms',
      tag,
      summary: "The project's signup forms, newest first, with cursor pagination",
      auth: 'secret',
      query: ListFormsQuery,
      responses: { 200: { description: 'A cursor page of forms', schema: FormPage } },
      handler: async (ctx, { query }) => {
        const page = await listForms(ctx.state.em, requireProject(ctx).id, query);
        ctx.body = { data: page.forms.map(show), cursor: page.cursor, hasMore: page.hasMore, total: page.total };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/forms',
      tag,
      summary: 'Create a signup form: its hosted page and its snippet take signups at once',
      auth: 'secret',
      body: CreateFormBody,
      responses: { 201: { description: 'The new form, with its URL and snippet', schema: FormResponse }, ...invalid },
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = show(await createForm(ctx.state.em, requireProject(ctx).id, body));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/forms/{id}',
      tag,
      summary: 'One signup form, with its URL and snippet',
      auth: 'secret',
      params: FormIdParams,
      responses: { 200: { description: 'The form', schema: FormResponse }, ...missing },
      handler: async (ctx, { params }) => {
        ctx.body = show(await findForm(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/forms/{id}',
      tag,
      summary: 'Change a signup form; pages and snippets already out take the change at once',
      auth: 'secret',
      params: FormIdParams,
      body: UpdateFormBody,
      responses: { 200: { description: 'The form', schema: FormResponse }, ...missing, ...invalid },
      handler: async (ctx, { params, body }) => {
        ctx.body = show(await updateForm(ctx.state.em, requireProject(ctx).id, params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/forms/{id}',
      tag,
      summary: 'Delete a signup form: its page and snippet stop taking signups; pending confirmations still work',
      auth: 'secret',
      params: FormIdParams,
      responses: { 204: { description: 'Deleted; no body' }, ...missing },
      handler: async (ctx, { params }) => {
        await deleteForm(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
