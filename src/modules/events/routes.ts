import type { Deps } from '../../deps';
import { requireProject, type AppContext } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { UsageResponse, usageOf, type ReferenceSource } from '../usage/references';
import {
  ContactEventsQuery,
  ContactIdParams,
  DeleteEventsResponse,
  EventNameParams,
  EventNamesResponse,
  EventPage,
  EventStatsResponse,
  ListEventsQuery,
  TrackBody,
  TrackResponse,
} from './schemas';
import { deleteEvents, eventNames, eventStats, listContactEvents, listEvents } from './service';
import { trackEvent, type TrackInput } from './track';
import { trackBatcher, type TrackBatcher } from './track-batch';

const tag = 'Events';

const trackResponses = {
  200: { description: 'The contact and event ids', schema: TrackResponse },
  400: { description: 'BAD_REQUEST: invalid Idempotency-Key header' },
  409: { description: 'IDEMPOTENCY_KEY_REUSED: the key was already claimed by this project' },
  422: { description: 'VALIDATION_ERROR; a reserved event name has errors[].code reserved_event' },
};

async function track(ctx: AppContext, body: TrackInput, batcher: TrackBatcher): Promise<void> {
  const { contact, event } = await trackEvent(ctx.state.em, requireProject(ctx).id, body, batcher);
  ctx.body = { success: true, data: { contact: contact.id, event: event.id, timestamp: event.createdAt.toISOString() } };
}

// /events/{eventName}/usage comes before /events/contact/{contactId}, which would claim /events/contact/usage.
export function eventRoutes(deps: Deps, references: readonly ReferenceSource[]): RouteDef[] {
  const batcher = trackBatcher(deps.orm);
  return [
    defineRoute({
      method: 'post',
      path: '/v1/track',
      tag,
      summary: 'Track an event for a contact (created when missing); public key only. Honours Idempotency-Key',
      auth: 'public',
      bucket: 'track',
      idempotent: true,
      body: TrackBody,
      responses: trackResponses,
      handler: (ctx, { body }) => track(ctx, body, batcher),
    }),
    defineRoute({
      method: 'post',
      path: '/events/track',
      tag,
      summary: 'The dashboard alias of /v1/track, with the secret key',
      auth: 'secret',
      bucket: 'track',
      idempotent: true,
      body: TrackBody,
      responses: trackResponses,
      handler: (ctx, { body }) => track(ctx, body, batcher),
    }),
    defineRoute({
      method: 'get',
      path: '/events',
      tag,
      summary: 'Recent events, newest first, with cursor pagination',
      auth: 'secret',
      query: ListEventsQuery,
      responses: { 200: { description: 'A cursor page of events', schema: EventPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listEvents(ctx.state.em, requireProject(ctx).id, query);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/events/stats',
      tag,
      summary: 'Event counts over time windows and the most frequent names',
      auth: 'secret',
      responses: { 200: { description: 'Statistics', schema: EventStatsResponse } },
      handler: async (ctx) => {
        ctx.body = await eventStats(ctx.state.em, requireProject(ctx).id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/events/names',
      tag,
      summary: 'Distinct event names of the project, service events included',
      auth: 'secret',
      responses: { 200: { description: 'Names with counts', schema: EventNamesResponse } },
      handler: async (ctx) => {
        ctx.body = { names: await eventNames(ctx.state.em, requireProject(ctx).id) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/events/{eventName}/usage',
      tag,
      summary: 'Segments, campaigns and workflows that reference the event name',
      auth: 'secret',
      params: EventNameParams,
      responses: { 200: { description: 'Referrers by area', schema: UsageResponse } },
      handler: async (ctx, { params }) => {
        ctx.body = await usageOf(ctx.state.em, references, requireProject(ctx).id, { kind: 'event', name: params.eventName });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/events/contact/{contactId}',
      tag,
      summary: "A contact's events, newest first, with cursor pagination",
      auth: 'secret',
      agent: { name: 'events_contact' },
      params: ContactIdParams,
      query: ContactEventsQuery,
      responses: {
        200: { description: 'A cursor page of events', schema: EventPage },
        404: { description: 'NOT_FOUND: no such contact in the project' },
      },
      handler: async (ctx, { params, query }) => {
        ctx.body = await listContactEvents(ctx.state.em, requireProject(ctx).id, params.contactId, query);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/events/{eventName}',
      tag,
      summary: 'Delete every event with this name (custom events only)',
      auth: 'secret',
      params: EventNameParams,
      responses: {
        200: { description: 'How many events were deleted', schema: DeleteEventsResponse },
        400: { description: 'BAD_REQUEST: a service event name' },
        404: { description: 'NOT_FOUND: no event has this name' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = await deleteEvents(ctx.state.em, requireProject(ctx).id, params.eventName);
      },
    }),
  ];
}
