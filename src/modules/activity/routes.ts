import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { DAY_MS, resolveRange } from '../analytics/range';
import { countActivity } from './counts';
import { activityFeed } from './feed';
import {
  FeedPage,
  FeedQuery,
  RecentCountQuery,
  RecentCountResponse,
  StatsQuery,
  StatsResponse,
  TypesResponse,
  UpcomingQuery,
  UpcomingResponse,
} from './schemas';
import { ACTIVITY_TYPES } from './types';
import { upcoming } from './upcoming';

const tag = 'Activity';
const badQuery = {
  400: { description: 'BAD_REQUEST: an unknown type, a malformed id, date, tag or cursor' },
};

export function activityRoutes(_deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/activity',
      tag,
      summary:
        'Email activity (sent, delivered, opened, clicked, bounced, complained, received, suppressed, failed), newest first, with cursor pagination; filters by type, contact and tag',
      auth: 'secret',
      query: FeedQuery,
      responses: { 200: { description: 'A cursor page of activity', schema: FeedPage }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await activityFeed(ctx.state.em, requireProject(ctx).id, { ...query, types: query.type ?? [...ACTIVITY_TYPES] });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/activity/stats',
      tag,
      summary: 'Activity per type in a range (default the last 30 days)',
      auth: 'secret',
      query: StatsQuery,
      responses: { 200: { description: 'Counts', schema: StatsResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        const range = resolveRange(query);
        const counts = await countActivity(ctx.state.em, requireProject(ctx).id, [...ACTIVITY_TYPES], range);
        const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
        ctx.body = { from: range.from.toISOString(), to: range.to.toISOString(), total, counts };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/activity/recent-count',
      tag,
      summary: 'How much activity there was since an instant (default the last 24 hours), optionally of some types',
      auth: 'secret',
      query: RecentCountQuery,
      responses: { 200: { description: 'The count', schema: RecentCountResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        const until = new Date();
        const since = query.since ?? new Date(until.getTime() - DAY_MS);
        const types = query.type ?? [...ACTIVITY_TYPES];
        const counts = await countActivity(ctx.state.em, requireProject(ctx).id, types, { from: since, to: until });
        ctx.body = { count: types.reduce((sum, t) => sum + counts[t], 0), since: since.toISOString(), until: until.toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/activity/types',
      tag,
      summary: 'The activity types the project has, with how many of each',
      auth: 'secret',
      responses: { 200: { description: 'Types', schema: TypesResponse } },
      handler: async (ctx) => {
        const counts = await countActivity(ctx.state.em, requireProject(ctx).id, [...ACTIVITY_TYPES]);
        ctx.body = { types: ACTIVITY_TYPES.filter((t) => counts[t] > 0).map((type) => ({ type, count: counts[type] })) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/activity/upcoming',
      tag,
      summary: 'Scheduled campaigns, workflow executions under way and scheduled emails',
      auth: 'secret',
      query: UpcomingQuery,
      responses: { 200: { description: 'What comes next', schema: UpcomingResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await upcoming(ctx.state.em, requireProject(ctx).id, query.limit);
      },
    }),
  ];
}
