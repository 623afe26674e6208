import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote, Loading, Notice } from '../../ui/feedback';
import { useAction, useLoad, usePoll, useReloadOnFocus } from '../../ui/use-load';
import { findNode, layout } from './graph';
import { GraphView, type Selection } from './graph-view';
import { AutomationHeader, triggerText, useWorkflow } from './header';
import { AutomationSettings } from './settings';
import { AddStepPanel, EditStepPanel } from './step-panel';
import './automations.css';

/** An automation's graph editor, its settings, enabling and deletion. */
export function AutomationEditor({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const workflow = useWorkflow(id);
  // The graph names each email step's template: a template written in another tab (the step panel offers one) is
  // read again when this window has the focus back, and after each edit.
  const templates = useLoad(() => call(api.GET('/templates', { params: { query: { pageSize: 100 } } })), []);
  useReloadOnFocus(templates.reload);
  const [selection, setSelection] = useState<Selection>(null);
  // Executions move on while the graph is shown: its figures are read again every few seconds.
  const stats = usePoll(() => call(api.GET('/workflows/{id}/stats', { params: { path: { id } } })), 5000, [id]);
  const toggle = useAction(async (enabled: boolean) => {
    await call(api.PATCH('/workflows/{id}', { params: { path: { id } }, body: { enabled } }));
    await workflow.reload();
  });
  const remove = useAction(async () => {
    await call(api.DELETE('/workflows/{id}', { params: { path: { id } } }));
    navigate('/automations');
  });

  /** After an edit: the graph as stored, and no refusal of an enabling that no longer applies. */
  const edited = () => {
    toggle.clear();
    void workflow.reload();
    void stats.reload();
    void templates.reload();
  };
  const w = workflow.data;
  if (!w) return workflow.error ? <ErrorNote error={workflow.error} /> : <Loading />;
  const trees = layout(w.steps, w.transitions);
  const node = selection?.kind === 'step' ? findNode(trees, selection.stepId) : null;
  const templateName = (tid: string) => templates.data?.data.find((t) => t.id === tid)?.name;
  // Figures only once something ran: a graph no execution has entered shows none.
  const figures = (stepId: string) => (stats.data?.executions.total ? stats.data.steps.find((f) => f.stepId === stepId) : undefined);
  return (
    <>
      <AutomationHeader workflow={w} tab="">
        <button
          type="button"
          class={w.enabled ? '' : 'primary'}
          disabled={toggle.pending}
          aria-busy={toggle.pending}
          onClick={() => void toggle.run(!w.enabled)}
        >
          {toggle.pending ? 'Saving…' : w.enabled ? 'Disable' : 'Enable'}
        </button>
        <ConfirmButton
          label="Delete automation"
          confirm="Delete this automation?"
          danger
          disabled={remove.pending}
          onConfirm={() => remove.run()}
        />
      </AutomationHeader>
      <ErrorNote error={toggle.error ?? remove.error} />
      {w.enabled ? (
        <Notice role="note">
          This automation is enabled: its steps' settings can change, but adding steps means disabling it first. Running executions keep the
          version they started with.
        </Notice>
      ) : null}
      <div class="editor">
        <div class="editor-graph card">
          <GraphView
            trees={trees}
            trigger={triggerText(w)}
            selection={selection}
            onSelect={setSelection}
            templateName={templateName}
            figures={figures}
            editable={!w.enabled}
          />
        </div>
        <div class="editor-panel">
          {selection?.kind === 'add' ? (
            <AddStepPanel
              key={JSON.stringify(selection.at?.slot ?? null) + (selection.at?.from.id ?? '')}
              workflowId={id}
              at={selection.at}
              onCancel={() => setSelection(null)}
              onDone={(stepId) => {
                setSelection({ kind: 'step', stepId });
                edited();
              }}
            />
          ) : node ? (
            <EditStepPanel key={node.step.id} workflowId={id} node={node} onCancel={() => setSelection(null)} onDone={edited} />
          ) : (
            <AutomationSettings workflow={w} onSaved={edited} />
          )}
        </div>
      </div>
    </>
  );
}
