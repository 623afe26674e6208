import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { campaignStats } from './counts';
import { campaignLinks } from './results';
import {
  CampaignBody,
  CampaignEnvelope,
  CampaignIdParams,
  CampaignLinks,
  CampaignPage,
  CampaignResponse,
  CancelResponse,
  ListCampaignsQuery,
  RecipientPage,
  VariantsResponse,
  WinnerBody,
  WinnerResponse,
  RecipientsQuery,
  SendCampaignBody,
  SendResponse,
  StatsResponse,
  TestSendBody,
  TestSendResponse,
} from './schemas';
import { cancelCampaign, chooseCampaignWinner, sendCampaign, sendTest } from './sending';
import { variantsView } from './ab-test';
import { listRecipients } from './recipients';
import { campaignView } from './serialize';
import { createCampaign, deleteCampaign, duplicateCampaign, findCampaign, listCampaigns, replaceCampaign } from './service';
import { pageOf } from '../../http/offset-page';

const tag = 'Campaigns';
const notFound = { 404: { description: 'CAMPAIGN_NOT_FOUND: no such campaign in this project' } };
const unverifiedSender = {
  403: { description: "INTERNAL_SERVER_ERROR (the contract's code for this case): the sender domain is not verified" },
};
const badAudience = {
  400: { description: 'BAD_REQUEST: audienceCondition names an unknown field, operator or segment, or lacks a unit or value' },
  422: {
    description:
      'VALIDATION_ERROR: invalid fields; subject, body or from missing without a template; segmentId missing for SEGMENT or not a segment of the project; audienceCondition missing for FILTERED; templateId unknown; Liquid that does not parse',
  },
};
const unavailable = { 503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing changed' } };

export function campaignRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/campaigns',
      tag,
      summary: 'Campaigns of the project, a page at a time, filtered by status and searched by name, subject or sender',
      auth: 'secret',
      query: ListCampaignsQuery,
      responses: { 200: { description: 'A page of campaigns', schema: CampaignPage } },
      handler: async (ctx, { query }) => {
        const { em } = ctx.state;
        const { campaigns, total } = await listCampaigns(em, requireProject(ctx).id, query);
        const data = [];
        for (const campaign of campaigns) data.push(await campaignView(em, campaign));
        ctx.body = pageOf(data, total, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns',
      tag,
      summary: 'Create a campaign in DRAFT; its sender must be on a verified domain of the project',
      auth: 'secret',
      body: CampaignBody,
      responses: { 201: { description: 'The new campaign, wrapped', schema: CampaignEnvelope }, ...unverifiedSender, ...badAudience },
      handler: async (ctx, { body }) => {
        const campaign = await createCampaign(ctx.state.em, requireProject(ctx).id, body);
        ctx.status = 201;
        ctx.body = { success: true, data: await campaignView(ctx.state.em, campaign) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/campaigns/{id}',
      tag,
      summary: 'One campaign, with its live audience while DRAFT or SCHEDULED and its counts once sending',
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 200: { description: 'The campaign', schema: CampaignResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await campaignView(ctx.state.em, await findCampaign(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/campaigns/{id}',
      tag,
      summary: 'Replace a DRAFT or SCHEDULED campaign (a schedule stays as it is)',
      auth: 'secret',
      params: CampaignIdParams,
      body: CampaignBody,
      responses: {
        200: { description: 'The campaign', schema: CampaignResponse },
        ...unverifiedSender,
        ...badAudience,
        ...notFound,
        409: { description: 'CONFLICT: the campaign is SENDING, SENT or CANCELLED' },
      },
      handler: async (ctx, { params, body }) => {
        const campaign = await replaceCampaign(ctx.state.em, requireProject(ctx).id, params.id, body);
        ctx.body = await campaignView(ctx.state.em, campaign);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/campaigns/{id}',
      tag,
      summary: 'Delete a campaign that is not SCHEDULED or SENDING; the emails it sent stay',
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 204: { description: 'Deleted' }, ...notFound, 409: { description: 'CONFLICT: the campaign is SCHEDULED or SENDING' } },
      handler: async (ctx, { params }) => {
        await deleteCampaign(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns/{id}/duplicate',
      tag,
      summary: 'Copy a campaign as a new DRAFT named "<name> (Copy)"',
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 201: { description: 'The new campaign', schema: CampaignResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        const copy = await duplicateCampaign(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 201;
        ctx.body = await campaignView(ctx.state.em, copy);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns/{id}/send',
      tag,
      summary:
        'Send a DRAFT now (SENDING) or at scheduledFor (SCHEDULED); on a SCHEDULED campaign, reschedule it or send it now (Temporal workflow campaign:<id>)',
      auth: 'secret',
      sends: true,
      params: CampaignIdParams,
      body: SendCampaignBody,
      responses: {
        200: { description: 'The campaign as it now stands, and what will happen', schema: SendResponse },
        400: {
          description:
            'BAD_REQUEST: scheduledFor cannot be read or is not in the future; or the stored audience condition no longer resolves',
        },
        ...unverifiedSender,
        ...notFound,
        409: { description: 'CONFLICT: the campaign is SENDING, SENT or CANCELLED' },
        422: {
          description:
            'VALIDATION_ERROR: the audience segment no longer exists; or, sending now, the audience reaches nobody (errors[0].code empty_audience)',
        },
        ...unavailable,
      },
      handler: async (ctx, { params, body }) => {
        const { campaign, message } = await sendCampaign(deps, ctx.state.em, requireProject(ctx).id, params.id, body.scheduledFor);
        ctx.body = {
          success: true,
          data: {
            id: campaign.id,
            name: campaign.name,
            status: campaign.status,
            scheduledFor: campaign.scheduledFor?.toISOString() ?? null,
          },
          message,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns/{id}/cancel',
      tag,
      summary: 'Cancel a SCHEDULED or SENDING campaign: back to DRAFT while nothing has been sent, else CANCELLED and the rest withdrawn',
      auth: 'secret',
      params: CampaignIdParams,
      responses: {
        200: { description: 'The campaign as it now stands', schema: CancelResponse },
        ...notFound,
        409: { description: 'CONFLICT: the campaign is DRAFT, SENT or CANCELLED' },
      },
      handler: async (ctx, { params }) => {
        const { campaign, message } = await cancelCampaign(deps, ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = { success: true, data: await campaignView(ctx.state.em, campaign), message };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns/{id}/test',
      tag,
      summary: 'Send the campaign once to a member of the project, subject prefixed "[TEST] "',
      auth: 'secret',
      sends: true,
      params: CampaignIdParams,
      body: TestSendBody,
      responses: {
        200: { description: 'Queued for delivery', schema: TestSendResponse },
        403: {
          description: 'FORBIDDEN: the address is not a member of the project; or INTERNAL_SERVER_ERROR: the sender domain is not verified',
        },
        ...notFound,
      },
      handler: async (ctx, { params, body }) => {
        const data = await sendTest(deps, ctx.state.em, requireProject(ctx).id, params.id, body.email);
        ctx.body = { success: true, data, message: `Test email queued for ${data.to}` };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/campaigns/{id}/stats',
      tag,
      summary: 'Send, delivery, open, click, bounce, complaint and unsubscribe counts, and rates in percent of sent',
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 200: { description: 'The figures', schema: StatsResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await campaignStats(ctx.state.em, await findCampaign(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/campaigns/{id}/recipients',
      tag,
      summary:
        "Who the send reached and who it did not: each recipient fixed when sending started, with its email's status, or SKIPPED (and why), NOT_ATTEMPTED or CONTACT_DELETED",
      auth: 'secret',
      params: CampaignIdParams,
      query: RecipientsQuery,
      responses: {
        200: { description: 'A page of recipients in audience order; empty before the campaign sends', schema: RecipientPage },
        400: { description: 'BAD_REQUEST: an unknown status, or a cursor that is not one this list issued for the same status' },
        ...notFound,
      },
      handler: async (ctx, { params, query }) => {
        const campaign = await findCampaign(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.body = await listRecipients(ctx.state.em, campaign, query);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/campaigns/{id}/variants',
      tag,
      summary: "An A/B test's variants with each one's figures, and the winner once decided (empty without a test)",
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 200: { description: 'The test', schema: VariantsResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await variantsView(ctx.state.em, await findCampaign(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/campaigns/{id}/winner',
      tag,
      summary: "Choose an A/B test's winner by hand: it goes to the rest at once, whatever the test's measure",
      auth: 'secret',
      params: CampaignIdParams,
      body: WinnerBody,
      responses: {
        200: { description: 'The test, decided', schema: WinnerResponse },
        ...notFound,
        409: { description: 'CONFLICT: the campaign has no A/B test, is not SENDING, or its winner was already decided' },
        422: { description: 'VALIDATION_ERROR: no such variant' },
        ...unavailable,
      },
      handler: async (ctx, { params, body }) => {
        const data = await chooseCampaignWinner(deps, ctx.state.em, requireProject(ctx).id, params.id, body.variant);
        ctx.body = { success: true, data, message: `Variant ${data.variants[body.variant]!.name} goes to the rest` };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/campaigns/{id}/links',
      tag,
      summary: 'The links the campaign’s recipients clicked: clicks and recipients per link, most clicked first',
      auth: 'secret',
      params: CampaignIdParams,
      responses: { 200: { description: 'The clicked links', schema: CampaignLinks }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await campaignLinks(ctx.state.em, await findCampaign(ctx.state.em, requireProject(ctx).id, params.id));
      },
    }),
  ];
}
