import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ErrorEnvelope, PlainErrorBody } from '../openapi/failures';
import { serializeContact } from '../contacts/serialize';
import { addMembers, removeMembers, segmentContacts } from './members';
import {
  AddMembersBody,
  AddMembersResponse,
  ComputeResponse,
  ComputeRunning,
  CountConditionBody,
  CountConditionResponse,
  CreateSegmentBody,
  RefreshResponse,
  RemoveMembersBody,
  RemoveMembersResponse,
  SegmentContactsPage,
  SegmentContactsQuery,
  SegmentIdParams,
  SegmentResponse,
  UpdateSegmentBody,
} from './schemas';
import { serializeSegment } from './serialize';
import type { SegmentInUse } from './in-use';
import {
  computeSegment,
  countCondition,
  createSegment,
  deleteSegment,
  findSegment,
  listSegments,
  refreshCount,
  updateSegment,
} from './service';

const tag = 'Segments';
const notFound = { 404: { description: 'SEGMENT_NOT_FOUND: no such segment in this project' } };
const badCondition = {
  400: {
    description:
      'A DYNAMIC segment without an object condition, as `{ error }`; or BAD_REQUEST naming the unknown field or operator, or the missing unit or value',
    schema: z.union([PlainErrorBody, ErrorEnvelope]),
  },
};
const unavailable = { 503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing changed' } };
const staticOnly = { 400: { description: 'BAD_REQUEST: the segment is DYNAMIC' } };

export function segmentRoutes(deps: Deps, inUse: SegmentInUse): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/segments',
      tag,
      summary: 'Every segment of the project, newest first (not paginated)',
      auth: 'secret',
      responses: { 200: { description: 'A bare array of segments', schema: z.array(SegmentResponse) } },
      handler: async (ctx) => {
        ctx.body = (await listSegments(ctx.state.em, requireProject(ctx).id)).map(serializeSegment);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/segments',
      tag,
      summary: 'Create a DYNAMIC (condition) or STATIC (member list) segment; memberCount is counted at once',
      auth: 'secret',
      body: CreateSegmentBody,
      responses: { 201: { description: 'The segment', schema: SegmentResponse }, ...badCondition, ...unavailable },
      handler: async (ctx, { body }) => {
        const segment = await createSegment(deps, ctx.state.em, requireProject(ctx).id, body);
        ctx.status = 201;
        ctx.body = serializeSegment(segment);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/segments/count',
      tag,
      summary: 'Count the contacts a condition matches now, without saving anything (the live count of a segment being edited)',
      auth: 'secret',
      agent: { readOnly: true },
      body: CountConditionBody,
      responses: { 200: { description: 'The count', schema: CountConditionResponse }, ...badCondition },
      handler: async (ctx, { body }) => {
        ctx.body = { memberCount: await countCondition(ctx.state.em, requireProject(ctx).id, body.condition, body.segmentId) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/segments/{id}',
      tag,
      summary: 'One segment, with its cached memberCount',
      auth: 'secret',
      params: SegmentIdParams,
      responses: { 200: { description: 'The segment', schema: SegmentResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = serializeSegment(await findSegment(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/segments/{id}',
      tag,
      summary: 'Update name, description, condition (DYNAMIC only) or trackMembership; tracking starts or stops with it',
      auth: 'secret',
      params: SegmentIdParams,
      body: UpdateSegmentBody,
      responses: { 200: { description: 'The segment', schema: SegmentResponse }, ...badCondition, ...notFound, ...unavailable },
      handler: async (ctx, { params, body }) => {
        ctx.body = serializeSegment(await updateSegment(deps, ctx.state.em, requireProject(ctx).id, params.id, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/segments/{id}',
      tag,
      summary: 'Delete a segment and its memberships; stops its tracking',
      auth: 'secret',
      params: SegmentIdParams,
      responses: {
        204: { description: 'Deleted' },
        ...notFound,
        409: { description: 'CONFLICT: the segment is the audience of an active campaign' },
      },
      handler: async (ctx, { params }) => {
        await deleteSegment(deps, ctx.state.em, requireProject(ctx).id, params.id, inUse);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/segments/{id}/contacts',
      tag,
      summary: "The segment's contacts, page by page: live matches for DYNAMIC, members for STATIC",
      auth: 'secret',
      params: SegmentIdParams,
      query: SegmentContactsQuery,
      responses: { 200: { description: 'A page of contacts', schema: SegmentContactsPage }, ...notFound },
      handler: async (ctx, { params, query }) => {
        const segment = await findSegment(ctx.state.em, requireProject(ctx).id, params.id);
        const page = await segmentContacts(ctx.state.em, segment, query);
        ctx.body = { data: page.contacts.map(serializeContact), total: page.total, page: query.page, pageSize: query.pageSize };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/segments/{id}/members',
      tag,
      summary: 'Add contacts to a STATIC segment by email, optionally creating missing contacts; emits no events',
      auth: 'secret',
      agent: { name: 'segments_members_add' },
      params: SegmentIdParams,
      body: AddMembersBody,
      responses: { 200: { description: 'What changed', schema: AddMembersResponse }, ...staticOnly, ...notFound },
      handler: async (ctx, { params, body }) => {
        const segment = await findSegment(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = await addMembers(ctx.state.em, segment, body);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/segments/{id}/members',
      tag,
      summary: 'Remove contacts from a STATIC segment by email; emits no events',
      auth: 'secret',
      agent: { name: 'segments_members_remove' },
      params: SegmentIdParams,
      body: RemoveMembersBody,
      responses: { 200: { description: 'What changed', schema: RemoveMembersResponse }, ...staticOnly, ...notFound },
      handler: async (ctx, { params, body }) => {
        const segment = await findSegment(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = await removeMembers(ctx.state.em, segment, body.emails);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/segments/{id}/compute',
      tag,
      summary:
        'Recompute the membership of a tracked DYNAMIC segment (Temporal workflow segment-compute:<id>), emitting entry and exit events',
      auth: 'secret',
      params: SegmentIdParams,
      responses: {
        200: { description: 'Contacts that entered and exited, and the member count', schema: ComputeResponse },
        202: { description: 'Not done within SEGMENT_COMPUTE_WAIT_SECONDS: the computation goes on', schema: ComputeRunning },
        400: { description: 'BAD_REQUEST: the segment does not track membership' },
        ...notFound,
        409: { description: 'CONFLICT: the segment was deleted or stopped tracking meanwhile' },
        ...unavailable,
      },
      handler: async (ctx, { params }) => {
        const outcome = await computeSegment(deps, ctx.state.em, requireProject(ctx).id, params.id);
        if ('running' in outcome) ctx.status = 202;
        ctx.body = outcome;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/segments/{id}/refresh',
      tag,
      summary: 'Recount and cache memberCount; no events, no membership writes',
      auth: 'secret',
      params: SegmentIdParams,
      responses: { 200: { description: 'The fresh count', schema: RefreshResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        const segment = await findSegment(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = { memberCount: await refreshCount(ctx.state.em, segment) };
      },
    }),
  ];
}
