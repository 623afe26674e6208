import type { FunctionComponent } from 'preact';
import { Overview } from './pages/project/overview';
import { ProjectSettings } from './pages/project/settings';
import { ApiKeys } from './pages/project/keys';
import { Members } from './pages/project/members';
import { Contacts } from './pages/contacts/list';
import { ImportContacts } from './pages/contacts/import';
import { ContactDetail } from './pages/contacts/detail';
import { CustomFields } from './pages/contacts/fields';

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
  { path: '/settings', component: ProjectSettings, nav: 'Settings' },
  { path: '/keys', component: ApiKeys, nav: 'API keys' },
  { path: '/members', component: Members, nav: 'Team' },
];
