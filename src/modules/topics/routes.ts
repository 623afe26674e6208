import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { CreateTopicBody, ListTopicsQuery, TopicIdParams, TopicPage, TopicResponse, UpdateTopicBody } from './schemas';
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from './service';
import type { TopicUsageSource } from './usage';

const tag = 'Topics';
const missing = { 404: { description: 'NOT_FOUND: no such topic in the project' } };

/** Topics (docs/consent.md "Topics"); `usage`: how campaigns, forms and workflows report the topics they name. */
export function topicRoutes(_deps: Deps, usage: readonly TopicUsageSource[]): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/topics',
      tag,
      summary: "The project's topics in the order they were created, with cursor pagination",
      auth: 'secret',
      query: ListTopicsQuery,
      responses: { 200: { description: 'A cursor page of topics', schema: TopicPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listTopics(ctx.state.em, requireProject(ctx).id, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/topics',
      tag,
      summary: 'Create a topic contacts can be in or out of',
      auth: 'secret',
      body: CreateTopicBody,
      responses: {
        201: { description: 'The new topic', schema: TopicResponse },
        409: { description: 'CONFLICT: another topic of the project has this name' },
        422: { description: 'VALIDATION_ERROR: a bad field, or the project has 100 topics' },
      },
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await createTopic(ctx.state.em, requireProject(ctx).id, body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/topics/{id}',
      tag,
      summary: 'One topic, with its member count',
      auth: 'secret',
      params: TopicIdParams,
      responses: { 200: { description: 'The topic', schema: TopicResponse }, ...missing },
      handler: async (ctx, { params }) => {
        ctx.body = await getTopic(ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/topics/{id}',
      tag,
      summary: 'Rename a topic, change its description or its default',
      auth: 'secret',
      params: TopicIdParams,
      body: UpdateTopicBody,
      responses: {
        200: { description: 'The topic', schema: TopicResponse },
        ...missing,
        409: { description: 'CONFLICT: another topic of the project has this name' },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = await updateTopic(ctx.state.em, requireProject(ctx).id, params.id, body);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/topics/{id}',
      tag,
      summary: "Delete a topic and every contact's choice of it",
      auth: 'secret',
      params: TopicIdParams,
      responses: {
        204: { description: 'Deleted; no body' },
        ...missing,
        409: { description: 'CONFLICT: a campaign not yet sent, a form or an automation step names the topic (listed in details)' },
      },
      handler: async (ctx, { params }) => {
        await deleteTopic(ctx.state.em, usage, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
