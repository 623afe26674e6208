import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ProjectIdParams } from '../projects/schemas';
import { requireMembership } from '../projects/service';
import { BillingLimitsBody, BillingLimitsResponse, ConsumptionResponse, ProviderParams } from './schemas';
import { billingDisabled, consumption, limitsOf, updateLimits } from './service';

const denied = {
  401: { description: 'No session' },
  403: { description: 'Not a member, or the role does not allow this (docs/roles.md)' },
};

/** A provider endpoint of a project: the caller must be a member, then it answers BILLING_DISABLED. */
const providerRoute = (method: 'get' | 'post', action: string, summary: string) =>
  defineRoute({
    method,
    path: `/users/@me/projects/{id}/${action}`,
    tag: 'Billing',
    summary: `${summary} (needs a billing provider; none is configured)`,
    auth: 'session',
    params: ProjectIdParams,
    responses: { 404: { description: 'BILLING_DISABLED, or no such project' }, ...denied },
    handler: async (ctx, { params }) => {
      await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
      throw billingDisabled();
    },
  });

export function billingRoutes(deps: Deps): RouteDef[] {
  return [
    providerRoute('post', 'checkout', 'Create a payment checkout session'),
    providerRoute('post', 'billing-portal', 'Open the billing portal'),
    providerRoute('get', 'billing-invoices', 'List invoices'),
    defineRoute({
      method: 'post',
      path: '/webhooks/incoming/{provider}',
      tag: 'Billing',
      summary: "Billing provider's webhook (none is configured)",
      auth: 'none',
      params: ProviderParams,
      responses: { 404: { description: 'BILLING_DISABLED' } },
      handler: () => {
        throw billingDisabled();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/@me/projects/{id}/billing-limits',
      tag: 'Billing',
      summary: 'Monthly caps per email category (any member); null is unlimited',
      auth: 'session',
      params: ProjectIdParams,
      responses: { 200: { description: 'Caps', schema: BillingLimitsResponse }, 404: { description: 'No such project' }, ...denied },
      handler: async (ctx, { params }) => {
        const { project } = await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = { limits: limitsOf(project) };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/users/@me/projects/{id}/billing-limits',
      tag: 'Billing',
      summary: 'Set monthly caps per email category (OWNER, ADMIN); categories left out keep their cap',
      auth: 'session',
      params: ProjectIdParams,
      body: BillingLimitsBody,
      responses: {
        200: { description: 'The caps now in force', schema: BillingLimitsResponse },
        404: { description: 'No such project' },
        ...denied,
      },
      handler: async (ctx, { params, body }) => {
        const { project } = await requireMembership(ctx.state.em, params.id, requireUser(ctx).id, ['OWNER', 'ADMIN']);
        ctx.body = { limits: await updateLimits(ctx.state.em, project, body.limits) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/@me/projects/{id}/billing-consumption',
      tag: 'Billing',
      summary: 'Emails per category in the current calendar month (UTC), against the caps (any member)',
      auth: 'session',
      params: ProjectIdParams,
      responses: { 200: { description: 'Consumption', schema: ConsumptionResponse }, 404: { description: 'No such project' }, ...denied },
      handler: async (ctx, { params }) => {
        const { project } = await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = await consumption(ctx.state.em, deps.config, project);
      },
    }),
  ];
}
