import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import {
  CreateEndpointBody,
  DeliveriesQuery,
  DeliveryPage,
  DeliveryResponse,
  EndpointIdParams,
  EndpointList,
  EndpointResponse,
  ReplayBody,
  ReplayResponse,
  UpdateEndpointBody,
} from './schemas';
import { serializeDelivery, serializeDeliveryRow, serializeEndpoint } from './serialize';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  replay,
  rotateSecret,
  sendTestMessage,
  updateEndpoint,
} from './service';
import { pageOf } from '../../http/offset-page';

const tag = 'Webhooks';
const notFoundDoc = { 404: { description: 'NOT_FOUND: no such endpoint in this project' } };
const refusedDoc = {
  422: { description: 'VALIDATION_ERROR: bad field, or a URL whose host is or resolves to a private, loopback or reserved address' },
};

export function webhookRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints',
      tag,
      summary: "Add an endpoint that receives the project's events (Standard Webhooks); the response holds its secret in full",
      auth: 'secret',
      body: CreateEndpointBody,
      responses: {
        201: { description: 'The endpoint, with its secret in full', schema: EndpointResponse },
        409: { description: 'CONFLICT: the project has the most endpoints it may have' },
        ...refusedDoc,
        503: { description: 'SERVICE_UNAVAILABLE: its delivery could not be scheduled; nothing was added' },
      },
      handler: async (ctx, { body }) => {
        const { endpoint, secret } = await createEndpoint(deps, ctx.state.em, requireProject(ctx).id, body);
        ctx.status = 201;
        ctx.body = serializeEndpoint(endpoint, secret);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints',
      tag,
      summary: "The project's endpoints, newest first (secrets masked)",
      auth: 'secret',
      responses: { 200: { description: 'Endpoints', schema: EndpointList } },
      handler: async (ctx) => {
        ctx.body = { data: (await listEndpoints(ctx.state.em, requireProject(ctx).id)).map((e) => serializeEndpoint(e)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/{id}',
      tag,
      summary: 'One endpoint (secret masked)',
      auth: 'secret',
      params: EndpointIdParams,
      responses: { 200: { description: 'The endpoint', schema: EndpointResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = serializeEndpoint(await findEndpoint(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/webhook-endpoints/{id}',
      tag,
      summary: 'Change the URL, description, selected events, or enable (resume where it stopped) and disable (pause) delivery',
      auth: 'secret',
      params: EndpointIdParams,
      body: UpdateEndpointBody,
      responses: {
        200: { description: 'The endpoint', schema: EndpointResponse },
        ...notFoundDoc,
        ...refusedDoc,
        503: { description: 'SERVICE_UNAVAILABLE: delivery could not be resumed; the endpoint stays disabled' },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = serializeEndpoint(await updateEndpoint(deps, ctx.state.em, requireProject(ctx).id, params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/webhook-endpoints/{id}',
      tag,
      summary: 'Remove the endpoint, its queue and its delivery log',
      auth: 'secret',
      params: EndpointIdParams,
      responses: { 204: { description: 'Removed' }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        await deleteEndpoint(deps, ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/{id}/rotate-secret',
      tag,
      summary: 'A new secret, returned in full; the previous one keeps signing beside it for 24 hours',
      auth: 'secret',
      params: EndpointIdParams,
      responses: { 200: { description: 'The endpoint with its new secret in full', schema: EndpointResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        const { endpoint, secret } = await rotateSecret(deps, ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = serializeEndpoint(endpoint, secret);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/{id}/test',
      tag,
      summary: 'Send a signed `webhook.test` message now, once, and return its delivery (SUCCEEDED or FAILED)',
      auth: 'secret',
      params: EndpointIdParams,
      responses: { 200: { description: 'The recorded delivery', schema: DeliveryResponse }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = serializeDelivery(await sendTestMessage(deps, ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/webhook-endpoints/{id}/deliveries',
      tag,
      summary: 'The delivery log, newest first (kept 30 days)',
      auth: 'secret',
      params: EndpointIdParams,
      query: DeliveriesQuery,
      responses: {
        200: { description: 'A page of deliveries', schema: DeliveryPage },
        400: { description: 'BAD_REQUEST: bad status, page or pageSize' },
        ...notFoundDoc,
      },
      handler: async (ctx, { params, query }) => {
        const { rows, total } = await listDeliveries(ctx.state.em, requireProject(ctx).id, params.id, query);
        ctx.body = pageOf(rows.map(serializeDeliveryRow), total, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhook-endpoints/{id}/replay',
      tag,
      summary: 'Deliver again, after what is pending and in recorded order, the selected events recorded since `since`',
      auth: 'secret',
      params: EndpointIdParams,
      body: ReplayBody,
      responses: {
        202: { description: 'Queued', schema: ReplayResponse },
        ...notFoundDoc,
        422: { description: 'VALIDATION_ERROR: since is not a date-time within the last 30 days' },
      },
      handler: async (ctx, { params, body }) => {
        const result = await replay(deps, ctx.state.em, requireProject(ctx).id, params.id, new Date(body.since));
        ctx.status = 202;
        ctx.body = { queued: result.queued, nextSince: result.nextSince?.toISOString() ?? null };
      },
    }),
  ];
}
