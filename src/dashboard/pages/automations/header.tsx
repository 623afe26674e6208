import { api, call } from '../../api/client';
import { href } from '../../router';
import { Badge } from '../../ui/feedback';
import { PageHeader } from '../../ui/layout';
import { useLoad } from '../../ui/use-load';
import type { Workflow } from './types';

const TABS = [
  { path: '', label: 'Editor' },
  { path: '/executions', label: 'Executions' },
  { path: '/versions', label: 'Versions' },
  { path: '/simulate', label: 'Simulate' },
];

export const triggerText = (w: Pick<Workflow, 'triggerType' | 'triggerConfig'>) =>
  w.triggerType === 'EVENT' ? `When “${w.triggerConfig.eventName ?? ''}” is tracked` : 'Started by hand (manual)';

/** The automation the page is about, loaded by id. */
export const useWorkflow = (id: string) => useLoad(() => call(api.GET('/workflows/{id}', { params: { path: { id } } })), [id]);

/** An automation's title, state and the links between its pages. */
export function AutomationHeader({ workflow, tab, children }: { workflow: Workflow; tab: string; children?: preact.ComponentChildren }) {
  return (
    <>
      <p class="crumbs">
        <a href={href('/automations')}>Automations</a>
      </p>
      <PageHeader title={workflow.name}>
        <Badge tone={workflow.enabled ? 'good' : 'neutral'}>{workflow.enabled ? 'Enabled' : 'Disabled'}</Badge>
        {children}
      </PageHeader>
      <nav class="tabs" aria-label="Automation">
        {TABS.map((t) => (
          <a key={t.path} href={href(`/automations/${workflow.id}${t.path}`)} aria-current={t.path === tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
    </>
  );
}
