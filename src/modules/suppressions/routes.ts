import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import {
  AddSuppressionsBody,
  AddSuppressionsResponse,
  ListSuppressionsQuery,
  SuppressionEntry,
  SuppressionPage,
  SuppressionParams,
} from './schemas';
import { addSuppressions, getSuppression, listSuppressions, removeSuppression } from './service';

const tag = 'Suppressions';
const notListed = { 404: { description: 'NOT_FOUND: the address is not on the list (or is no address)' } };

export function suppressionRoutes(_deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/suppressions',
      tag,
      summary: 'The addresses the project does not mail, newest first, with cursor pagination, a reason filter and address search',
      auth: 'secret',
      query: ListSuppressionsQuery,
      responses: { 200: { description: 'A cursor page of entries', schema: SuppressionPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listSuppressions(ctx.state.em, requireProject(ctx).id, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/suppressions',
      tag,
      summary: 'Add addresses to the list (MANUAL): no marketing or transactional mail goes to them until removed',
      auth: 'secret',
      body: AddSuppressionsBody,
      responses: { 200: { description: 'How many were added, and how many were on the list already', schema: AddSuppressionsResponse } },
      handler: async (ctx, { body }) => {
        ctx.body = await addSuppressions(ctx.state.em, requireProject(ctx).id, body.emails, body.reason);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/suppressions/{email}',
      tag,
      summary: "One address's entry",
      auth: 'secret',
      params: SuppressionParams,
      responses: { 200: { description: 'The entry', schema: SuppressionEntry }, ...notListed },
      handler: async (ctx, { params }) => {
        ctx.body = await getSuppression(ctx.state.em, requireProject(ctx).id, params.email);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/suppressions/{email}',
      tag,
      summary: 'Take an address off the list, so that mail goes to it again; the contact stays unsubscribed',
      auth: 'secret',
      params: SuppressionParams,
      responses: { 204: { description: 'Removed; no body' }, ...notListed },
      handler: async (ctx, { params }) => {
        await removeSuppression(ctx.state.em, requireProject(ctx).id, params.email);
        ctx.status = 204;
      },
    }),
  ];
}
