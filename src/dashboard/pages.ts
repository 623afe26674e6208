import type { FunctionComponent } from 'preact';
import { Overview } from './pages/project/overview';
import { ProjectSettings } from './pages/project/settings';
import { ApiKeys } from './pages/project/keys';
import { Members } from './pages/project/members';
import { SegmentList } from './pages/segments/list';
import { SegmentEditor } from './pages/segments/editor';
import { TemplateList } from './pages/templates/list';
import { TemplateEditor } from './pages/templates/editor';
import { Campaigns } from './pages/campaigns/list';
import { EditCampaign, NewCampaign } from './pages/campaigns/compose';
import { CampaignPage } from './pages/campaigns/campaign';
import { Domains } from './pages/domains/list';
import { DomainDetail } from './pages/domains/detail';
import { Activity } from './pages/insights/activity';
import { Analytics } from './pages/insights/analytics';
import { Billing } from './pages/insights/billing';
import { SecurityPage } from './pages/insights/security';
import { Automations } from './pages/automations/list';
import { AutomationEditor } from './pages/automations/editor';
import { AutomationExecutions } from './pages/automations/executions';
import { AutomationExecution } from './pages/automations/execution';
import { AutomationSimulation } from './pages/automations/simulate';
import { Contacts } from './pages/contacts/list';
import { ImportContacts } from './pages/contacts/import';
import { ContactDetail } from './pages/contacts/detail';
import { CustomFields } from './pages/contacts/fields';
import { Webhooks } from './pages/webhooks/list';
import { WebhookEndpoint } from './pages/webhooks/detail';
import { Topics } from './pages/consent/topics';
import { TopicDetail } from './pages/consent/topic';
import { Forms } from './pages/consent/forms';
import { SignupFormDetail } from './pages/consent/form';

export interface PageDef {
  /** `/contacts/:id`-style pattern after `#`. */
  path: string;
  component: FunctionComponent<{ params: Record<string, string>; query: URLSearchParams }>;
  /** Shown in the sidebar under this label. */
  nav?: string;
}

/** Every page of a project, in sidebar order: the one list the app's router and navigation read. */
export const projectPages: PageDef[] = [
  { path: '/', component: Overview, nav: 'Overview' },
  { path: '/contacts', component: Contacts, nav: 'Contacts' },
  { path: '/contacts/import', component: ImportContacts },
  { path: '/contacts/:id', component: ContactDetail },
  { path: '/fields', component: CustomFields, nav: 'Custom fields' },
  { path: '/topics', component: Topics, nav: 'Topics' },
  { path: '/topics/:id', component: TopicDetail },
  { path: '/forms', component: Forms, nav: 'Signup forms' },
  { path: '/forms/:id', component: SignupFormDetail },
  { path: '/segments', component: SegmentList, nav: 'Segments' },
  { path: '/segments/new', component: SegmentEditor },
  { path: '/segments/:id', component: SegmentEditor },
  { path: '/templates', component: TemplateList, nav: 'Templates' },
  { path: '/templates/new', component: TemplateEditor },
  { path: '/templates/:id', component: TemplateEditor },
  { path: '/campaigns', component: Campaigns, nav: 'Campaigns' },
  { path: '/campaigns/new', component: NewCampaign },
  { path: '/campaigns/:id', component: CampaignPage },
  { path: '/campaigns/:id/edit', component: EditCampaign },
  { path: '/automations', component: Automations, nav: 'Automations' },
  { path: '/automations/:id', component: AutomationEditor },
  { path: '/automations/:id/executions', component: AutomationExecutions },
  { path: '/automations/:id/executions/:executionId', component: AutomationExecution },
  { path: '/automations/:id/simulate', component: AutomationSimulation },
  { path: '/domains', component: Domains, nav: 'Domains' },
  { path: '/domains/:id', component: DomainDetail },
  { path: '/activity', component: Activity, nav: 'Activity' },
  { path: '/analytics', component: Analytics, nav: 'Analytics' },
  { path: '/billing', component: Billing, nav: 'Billing' },
  { path: '/security', component: SecurityPage, nav: 'Security' },
  { path: '/settings', component: ProjectSettings, nav: 'Settings' },
  { path: '/keys', component: ApiKeys, nav: 'API keys' },
  { path: '/webhooks', component: Webhooks, nav: 'Webhooks' },
  { path: '/webhooks/:id', component: WebhookEndpoint },
  { path: '/members', component: Members, nav: 'Team' },
];
