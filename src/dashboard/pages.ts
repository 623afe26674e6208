import type { FunctionComponent } from 'preact';
import { Overview } from './pages/project/overview';
import { ProjectSettings } from './pages/project/settings';
import { ApiKeys } from './pages/project/keys';
import { Members } from './pages/project/members';
import { SegmentList } from './pages/segments/list';
import { SegmentEditor } from './pages/segments/editor';
import { TemplateList } from './pages/templates/list';
import { TemplateEditor } from './pages/templates/editor';

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
  { path: '/segments', component: SegmentList, nav: 'Segments' },
  { path: '/segments/new', component: SegmentEditor },
  { path: '/segments/:id', component: SegmentEditor },
  { path: '/templates', component: TemplateList, nav: 'Templates' },
  { path: '/templates/new', component: TemplateEditor },
  { path: '/templates/:id', component: TemplateEditor },
  { path: '/settings', component: ProjectSettings, nav: 'Settings' },
  { path: '/keys', component: ApiKeys, nav: 'API keys' },
  { path: '/members', component: Members, nav: 'Team' },
];
