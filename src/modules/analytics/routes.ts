import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { contactsGrowth } from './contacts-growth';
import { resolveRange } from './range';
import {
  CampaignStatsQuery,
  CampaignStatsResponse,
  ContactsGrowthQuery,
  ContactsGrowthResponse,
  TimeseriesQuery,
  TimeseriesResponse,
  TopCampaignsQuery,
  TopCampaignsResponse,
  TopEventsQuery,
  TopEventsResponse,
} from './schemas';
import { campaignStats, timeseries, topCampaigns, topEvents } from './service';

const tag = 'Analytics';
const badQuery = {
  400: { description: 'BAD_REQUEST: an unknown parameter value or a malformed date' },
};

export function analyticsRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/analytics/timeseries',
      tag,
      summary: 'Emails sent, delivered, opened, clicked, bounced and complained about per UTC hour or day, every bucket present',
      auth: 'secret',
      query: TimeseriesQuery,
      responses: { 200: { description: 'The series', schema: TimeseriesResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await timeseries(ctx.state.em, deps.config, requireProject(ctx).id, resolveRange(query), query.interval);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/analytics/contacts',
      tag,
      summary: 'Contacts created per UTC hour or day and the running total, counting the contacts that exist now',
      auth: 'secret',
      query: ContactsGrowthQuery,
      responses: { 200: { description: 'The series', schema: ContactsGrowthResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await contactsGrowth(ctx.state.em, requireProject(ctx).id, resolveRange(query), query.interval);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/analytics/top-campaigns',
      tag,
      summary: 'Campaigns ranked by a count or rate of their email in the range',
      auth: 'secret',
      query: TopCampaignsQuery,
      responses: { 200: { description: 'The ranking', schema: TopCampaignsResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await topCampaigns(ctx.state.em, deps.config, requireProject(ctx).id, resolveRange(query), query.metric, query.limit);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/analytics/campaign-stats',
      tag,
      summary: "Each campaign's counts and rates in the range, a page at a time, with the totals of all campaign email",
      auth: 'secret',
      query: CampaignStatsQuery,
      responses: { 200: { description: 'The breakdown', schema: CampaignStatsResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await campaignStats(ctx.state.em, deps.config, requireProject(ctx).id, resolveRange(query), query.page, query.pageSize);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/analytics/top-events',
      tag,
      summary: 'The most frequent custom event names in the range (service events left out)',
      auth: 'secret',
      query: TopEventsQuery,
      responses: { 200: { description: 'Names with counts', schema: TopEventsResponse }, ...badQuery },
      handler: async (ctx, { query }) => {
        ctx.body = await topEvents(ctx.state.em, requireProject(ctx).id, resolveRange(query), query.limit);
      },
    }),
  ];
}
