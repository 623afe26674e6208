import type { FunctionComponent } from 'preact';
import { Overview } from './pages/project/overview';
import { ProjectSettings } from './pages/project/settings';
import { ApiKeys } from './pages/project/keys';
import { Members } from './pages/project/members';
import { Automations } from './pages/automations/list';
import { AutomationEditor } from './pages/automations/editor';
import { AutomationExecutions } from './pages/automations/executions';
import { AutomationExecution } from './pages/automations/execution';
import { AutomationSimulation } from './pages/automations/simulate';

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
  { path: '/automations', component: Automations, nav: 'Automations' },
  { path: '/automations/:id', component: AutomationEditor },
  { path: '/automations/:id/executions', component: AutomationExecutions },
  { path: '/automations/:id/executions/:executionId', component: AutomationExecution },
  { path: '/automations/:id/simulate', component: AutomationSimulation },
  { path: '/settings', component: ProjectSettings, nav: 'Settings' },
  { path: '/keys', component: ApiKeys, nav: 'API keys' },
  { path: '/members', component: Members, nav: 'Team' },
];
