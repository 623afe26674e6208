import type { Deps } from '../deps';
import type { RouteDef } from '../http/route';
import { configRoutes } from '../modules/config/routes';
import { openapiRoutes } from '../modules/openapi/routes';
import { userRoutes } from '../modules/users/routes';
import { projectRoutes } from '../modules/projects/routes';
import { contactRoutes } from '../modules/contacts/routes';
import { eventRoutes } from '../modules/events/routes';
import { referenceSources } from './references';
import { segmentRoutes } from '../modules/segments/routes';
import { activeCampaignsUsing } from '../modules/campaigns/segment-use';
import { domainRoutes } from '../modules/domains/routes';
import { templateRoutes } from '../modules/templates/routes';
import { verifyRoutes } from '../modules/verify/routes';
import { memberRoutes } from '../modules/members/routes';
import { securityRoutes } from '../modules/security/routes';
import { billingRoutes } from '../modules/billing/routes';
import { importRoutes } from '../modules/imports/routes';
import { bulkRoutes } from '../modules/bulk/routes';
import { emailRoutes } from '../modules/sending/routes';
import { campaignRoutes } from '../modules/campaigns/routes';
import { campaignTemplateUsage, campaignTopicUsage } from '../modules/campaigns/usage';
import { automationRoutes } from '../modules/automations/routes';
import { workflowTemplateUsage, workflowTopicUsage } from '../modules/automations/usage';
import { simulatorFor } from './simulator';
import { trackingRoutes } from '../modules/tracking/routes';
import { preferenceRoutes } from '../modules/preferences/routes';
import { snsRoutes } from '../modules/sns/routes';
import { activityRoutes } from '../modules/activity/routes';
import { analyticsRoutes } from '../modules/analytics/routes';
import { uploadRoutes } from '../modules/uploads/routes';
import { webhookRoutes } from '../modules/webhooks/routes';
import { suppressionRoutes } from '../modules/suppressions/routes';
import { dashboardRoutes } from '../modules/dashboard/routes';
import { adminRoutes } from '../modules/admin/routes';
import { agentRoutes } from '../modules/agent/routes';
import { inboundRoutes } from '../modules/inbound/routes';
import { imageStoreFor } from '../modules/uploads/service';
import { topicRoutes } from '../modules/topics/routes';
import { formRoutes } from '../modules/forms/routes';
import { publicFormRoutes } from '../modules/forms/public-routes';
import { formTemplateUsage, formTopicUsage } from '../modules/forms/service';
import { consentRoutes } from '../modules/consent/routes';
import { confirmRoutes } from '../modules/consent/confirm-routes';
import { contactDoubleOptIn } from '../modules/consent/contact-signup';

/** Every HTTP route of the API, in one list: it also feeds /openapi.json. */
export function allRoutes(deps: Deps): RouteDef[] {
  const routes: RouteDef[] = [...configRoutes(deps), ...userRoutes(deps), ...projectRoutes(deps), ...domainRoutes(deps)];
  routes.push(...memberRoutes(deps), ...securityRoutes(deps), ...billingRoutes(deps));
  routes.push(
    ...contactRoutes(deps, referenceSources, contactDoubleOptIn(deps)),
    ...consentRoutes(deps),
    ...importRoutes(deps),
    ...bulkRoutes(deps),
    ...eventRoutes(deps, referenceSources),
  );
  routes.push(...segmentRoutes(deps, activeCampaignsUsing), ...emailRoutes(deps), ...suppressionRoutes(deps), ...campaignRoutes(deps));
  routes.push(...automationRoutes(deps, simulatorFor(deps)));
  routes.push(...templateRoutes(deps, [campaignTemplateUsage, workflowTemplateUsage, formTemplateUsage]), ...verifyRoutes(deps));
  routes.push(...topicRoutes(deps, [campaignTopicUsage, formTopicUsage, workflowTopicUsage]), ...formRoutes(deps));
  routes.push(...trackingRoutes(deps), ...preferenceRoutes(deps), ...confirmRoutes(deps), ...publicFormRoutes(deps), ...snsRoutes(deps));
  routes.push(...activityRoutes(deps), ...analyticsRoutes(deps), ...uploadRoutes(deps));
  routes.push(...webhookRoutes(deps), ...dashboardRoutes(deps), ...adminRoutes(deps), ...inboundRoutes(deps, imageStoreFor(deps.config)));
  routes.push(...agentRoutes(() => routes));
  return [...routes, ...openapiRoutes(() => routes)];
}
