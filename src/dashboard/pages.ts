import type { FunctionComponent } from 'preact';
import type { IconNode } from 'lucide';
import {
  Activity as ActivityIcon,
  Ban,
  BarChart3,
  ClipboardList,
  CreditCard,
  FileText,
  Globe,
  KeyRound,
  LayoutDashboard,
  Megaphone,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Tags,
  Users,
  UsersRound,
  Webhook,
  Workflow,
  Filter,
  Inbox,
} from './ui/icons';
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
import { AutomationVersions } from './pages/automations/versions';
import { Contacts } from './pages/contacts/list';
import { ImportContacts } from './pages/contacts/import';
import { ContactDetail } from './pages/contacts/detail';
import { CustomFields } from './pages/contacts/fields';
import { Webhooks } from './pages/webhooks/list';
import { WebhookEndpoint } from './pages/webhooks/detail';
import { EmailDetail } from './pages/emails/email';
import { Suppressions } from './pages/suppressions/list';
import { InboundList } from './pages/inbound/list';
import { InboundMessage } from './pages/inbound/message';
import { Topics } from './pages/consent/topics';
import { TopicDetail } from './pages/consent/topic';
import { Forms } from './pages/consent/forms';
import { SignupFormDetail } from './pages/consent/form';
import { Operators } from './pages/operators/operators';

export interface PageDef {
  /** `/contacts/:id`-style pattern after `#`. */
  path: string;
  component: FunctionComponent<{ params: Record<string, string>; query: URLSearchParams }>;
  /** Shown in the sidebar under this label. */
  nav?: string;
  /** Its sidebar icon (ui/icons.tsx, lucide); a dot without one. */
  icon?: IconNode;
  /** The sidebar group it opens; the items after it, up to the next group, are in it too. */
  group?: string;
}

/** Every page of a project, in sidebar order: the one list the app's router and navigation read. */
export const projectPages: PageDef[] = [
  { path: '/', component: Overview, nav: 'Overview', icon: LayoutDashboard },
  { path: '/contacts', component: Contacts, nav: 'Contacts', icon: Users, group: 'Audience' },
  { path: '/contacts/import', component: ImportContacts },
  { path: '/contacts/:id', component: ContactDetail },
  { path: '/fields', component: CustomFields, nav: 'Custom fields', icon: SlidersHorizontal },
  { path: '/topics', component: Topics, nav: 'Topics', icon: Tags },
  { path: '/topics/:id', component: TopicDetail },
  { path: '/forms', component: Forms, nav: 'Signup forms', icon: ClipboardList },
  { path: '/forms/:id', component: SignupFormDetail },
  { path: '/segments', component: SegmentList, nav: 'Segments', icon: Filter },
  { path: '/segments/new', component: SegmentEditor },
  { path: '/segments/:id', component: SegmentEditor },
  { path: '/templates', component: TemplateList, nav: 'Templates', icon: FileText, group: 'Messages' },
  { path: '/templates/new', component: TemplateEditor },
  { path: '/templates/:id', component: TemplateEditor },
  { path: '/campaigns', component: Campaigns, nav: 'Campaigns', icon: Megaphone },
  { path: '/campaigns/new', component: NewCampaign },
  { path: '/campaigns/:id', component: CampaignPage },
  { path: '/campaigns/:id/edit', component: EditCampaign },
  { path: '/automations', component: Automations, nav: 'Automations', icon: Workflow },
  { path: '/automations/:id', component: AutomationEditor },
  { path: '/automations/:id/executions', component: AutomationExecutions },
  { path: '/automations/:id/executions/:executionId', component: AutomationExecution },
  { path: '/automations/:id/simulate', component: AutomationSimulation },
  { path: '/automations/:id/versions', component: AutomationVersions },
  { path: '/domains', component: Domains, nav: 'Domains', icon: Globe, group: 'Delivery' },
  { path: '/domains/:id', component: DomainDetail },
  { path: '/activity', component: Activity, nav: 'Activity', icon: ActivityIcon },
  { path: '/emails/:id', component: EmailDetail },
  { path: '/inbound', component: InboundList, nav: 'Inbound', icon: Inbox },
  { path: '/inbound/:id', component: InboundMessage },
  { path: '/suppressions', component: Suppressions, nav: 'Suppressions', icon: Ban },
  { path: '/analytics', component: Analytics, nav: 'Analytics', icon: BarChart3 },
  { path: '/billing', component: Billing, nav: 'Billing', icon: CreditCard },
  { path: '/security', component: SecurityPage, nav: 'Security', icon: ShieldCheck },
  { path: '/settings', component: ProjectSettings, nav: 'Settings', icon: Settings, group: 'Project' },
  { path: '/keys', component: ApiKeys, nav: 'API keys', icon: KeyRound },
  { path: '/webhooks', component: Webhooks, nav: 'Webhooks', icon: Webhook },
  { path: '/webhooks/:id', component: WebhookEndpoint },
  { path: '/members', component: Members, nav: 'Team', icon: UsersRound },
];

/**
 * Pages of the deployment rather than of a project, shown with or without a session (no sidebar): the operators'
 * page opens with the ADMIN_TOKEN, not with a user account (docs/operators.md).
 */
export const deploymentPages: PageDef[] = [{ path: '/operators', component: Operators }];
