import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ErrorEnvelope, PlainErrorBody } from '../openapi/failures';
import {
  CreateTemplateBody,
  ListTemplatesQuery,
  PreviewTemplateBody,
  PreviewTemplateResponse,
  TemplateIdParams,
  TemplatePage,
  TemplateResponse,
  TemplateUsageResponse,
  UpdateTemplateBody,
} from './schemas';
import { serializeTemplate } from './serialize';
import { createTemplate, deleteTemplate, duplicateTemplate, findTemplate, listTemplates, templateUsage, updateTemplate } from './service';
import type { TemplateUsageSource } from './usage';
import { previewTemplate } from './preview';
import { pageOf } from '../../http/offset-page';

const tag = 'Templates';
const notFoundDoc = { 404: { description: 'TEMPLATE_NOT_FOUND: no such template in this project' } };
const unverifiedSenderDoc = {
  403: { description: "INTERNAL_SERVER_ERROR (the contract's code for this case): the sender domain is not verified" },
};
const unparseableDoc = {
  422: { description: 'VALIDATION_ERROR: invalid fields, or Liquid that does not parse (line and reason in errors)' },
};

/** `usageSources`: how campaigns and workflows report their references (see usage.ts). */
export function templateRoutes(deps: Deps, usageSources: readonly TemplateUsageSource[] = []): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/templates',
      tag,
      summary: 'Templates of the project, a page at a time, filtered by type and searched by name, description or subject',
      auth: 'secret',
      query: ListTemplatesQuery,
      responses: { 200: { description: 'A page of templates', schema: TemplatePage } },
      handler: async (ctx, { query }) => {
        const { templates, total } = await listTemplates(ctx.state.em, requireProject(ctx).id, query);
        ctx.body = pageOf(templates.map(serializeTemplate), total, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/templates',
      tag,
      summary: 'Create a template; its sender must be on a verified domain of the project',
      auth: 'secret',
      body: CreateTemplateBody,
      responses: {
        201: { description: 'The new template', schema: TemplateResponse },
        400: {
          description: 'A required field (name, subject, body, from) is missing, as `{ error }`; malformed JSON, in the envelope',
          schema: z.union([PlainErrorBody, ErrorEnvelope]),
        },
        ...unverifiedSenderDoc,
        ...unparseableDoc,
      },
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = serializeTemplate(await createTemplate(ctx.state.em, requireProject(ctx).id, body));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/templates/preview',
      tag,
      summary: 'Render a subject and body for one contact, as they would receive it, and list the variables used; nothing is saved or sent',
      auth: 'secret',
      agent: { readOnly: true },
      body: PreviewTemplateBody,
      responses: {
        200: { description: 'The rendered subject and body, and the variables', schema: PreviewTemplateResponse },
        404: { description: 'NOT_FOUND: no such contact in this project' },
        ...unparseableDoc,
      },
      handler: async (ctx, { body }) => {
        ctx.body = await previewTemplate(ctx.state.em, deps.config, requireProject(ctx).id, body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/templates/{id}',
      tag,
      summary: 'One template',
      auth: 'secret',
      params: TemplateIdParams,
      responses: { 200: { description: 'The template', schema: TemplateResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = serializeTemplate(await findTemplate(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/templates/{id}',
      tag,
      summary: 'Change some fields of a template; a new sender must be on a verified domain',
      auth: 'secret',
      params: TemplateIdParams,
      body: UpdateTemplateBody,
      responses: {
        200: { description: 'The template', schema: TemplateResponse },
        ...notFoundDoc,
        ...unverifiedSenderDoc,
        ...unparseableDoc,
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = serializeTemplate(await updateTemplate(ctx.state.em, requireProject(ctx).id, params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/templates/{id}',
      tag,
      summary: 'Delete a template; refused while a workflow step uses it',
      auth: 'secret',
      params: TemplateIdParams,
      responses: {
        204: { description: 'Deleted' },
        409: { description: 'CONFLICT: workflow steps use the template (listed in details.workflows)' },
        ...notFoundDoc,
      },
      handler: async (ctx, { params }) => {
        await deleteTemplate(ctx.state.em, usageSources, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/templates/{id}/duplicate',
      tag,
      summary: 'Copy a template as "<name> (Copy)"; the response is the new template, its id the new ID',
      auth: 'secret',
      params: TemplateIdParams,
      responses: { 201: { description: 'The new template', schema: TemplateResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.status = 201;
        ctx.body = serializeTemplate(await duplicateTemplate(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/templates/{id}/usage',
      tag,
      summary: 'Campaigns and workflows (through their SEND_EMAIL steps) that reference the template',
      auth: 'secret',
      params: TemplateIdParams,
      responses: { 200: { description: 'References, by name', schema: TemplateUsageResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = await templateUsage(ctx.state.em, usageSources, requireProject(ctx).id, params.id);
      },
    }),
  ];
}
