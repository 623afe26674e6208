import type { FunctionComponent } from 'preact';
import { Overview } from './pages/project/overview';
import { ProjectSettings } from './pages/project/settings';
import { ApiKeys } from './pages/project/keys';
import { Members } from './pages/project/members';
import { Activity } from './pages/insights/activity';
import { Analytics } from './pages/insights/analytics';
import { Billing } from './pages/insights/billing';
import { SecurityPage } from './pages/insights/security';

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
  { path: '/activity', component: Activity, nav: 'Activity' },
  { path: '/analytics', component: Analytics, nav: 'Analytics' },
  { path: '/billing', component: Billing, nav: 'Billing' },
  { path: '/security', component: SecurityPage, nav: 'Security' },
  { path: '/settings', component: ProjectSettings, nav: 'Settings' },
  { path: '/keys', component: ApiKeys, nav: 'API keys' },
  { path: '/members', component: Members, nav: 'Team' },
];
