import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { configFrom, draftOf, type Draft } from './draft';
import type { Exit, TreeNode } from './graph';
import { branchesUsed, deleteStep, insertStep } from './graph-edits';
import { StepFields } from './step-fields';
import { STEP_TYPES, configOf, stepLabel, type NewStep, type StepType } from './types';

/**
 * The panel's section, whose first input takes the focus when it opens, so the keyboard goes on from the graph
 * to the form. It does so as the panel is drawn, before anything else can happen; an effect after the paint
 * took the focus away from a field someone had already clicked, and their typing went into the name.
 */
function usePanelFocus() {
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const panel = ref.current;
    if (panel && !panel.contains(document.activeElement)) panel.querySelector<HTMLElement>('input, select')?.focus();
  }, []);
  return ref;
}

/** Where a new step goes, in words: the panel's title. */
function placeOf(at: Exit | null): string {
  if (!at) return 'Add the first step';
  const from = at.from.name ?? stepLabel(at.from.type);
  return at.label ? `Add a step on the ${at.label} branch of “${from}”` : `Add a step after “${from}”`;
}

/** The side panel's form for a new step at `at`: its type, name and settings. */
export function AddStepPanel({
  workflowId,
  at,
  onDone,
  onCancel,
}: {
  workflowId: string;
  at: Exit | null;
  onDone: (stepId: string) => void;
  onCancel: () => void;
}) {
  // EXIT ends the way: it cannot go between two steps.
  const types = at?.transition ? STEP_TYPES.filter((t) => t.value !== 'EXIT') : STEP_TYPES;
  const panel = usePanelFocus();
  const [type, setType] = useState<StepType>('SEND_EMAIL');
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<Draft>(() => draftOf({}));
  const add = useAction(async () => {
    const body = { type, name: name.trim() || null, config: configFrom(type, draft, {}) } as NewStep;
    const step = await insertStep(workflowId, at, body);
    onDone(step.id);
  });
  return (
    <section class="card step-panel" aria-label="Step settings" ref={panel}>
      <h2>{placeOf(at)}</h2>
      <Form onSubmit={() => void add.run()}>
        <Select label="Step type" name="type" value={type} options={types} onValue={setType} error={add.error} />
        <TextInput label="Step name (optional)" name="name" value={name} onValue={setName} error={add.error} />
        <StepFields type={type} draft={draft} set={(patch) => setDraft({ ...draft, ...patch })} error={add.error} />
        <ErrorNote error={add.error} />
        <div class="actions">
          <Submit pending={add.pending} busy="Adding…">
            Add step
          </Submit>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The side panel's form for an existing step: its name and settings, saved whole, and its deletion. */
export function EditStepPanel({
  workflowId,
  node,
  onDone,
  onCancel,
}: {
  workflowId: string;
  node: TreeNode;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { step } = node;
  const panel = usePanelFocus();
  const [name, setName] = useState(step.name ?? '');
  const [draft, setDraft] = useState<Draft>(() => draftOf(configOf(step)));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await call(
      api.PATCH('/workflows/{id}/steps/{stepId}', {
        params: { path: { id: workflowId, stepId: step.id } },
        body: { name: name.trim() || null, config: configFrom(step.type, draft, configOf(step)) },
      }),
    );
    setSaved(true);
    onDone();
  });
  const remove = useAction(async () => {
    await deleteStep(workflowId, node);
    onCancel();
    onDone();
  });
  const withBranches = branchesUsed(node) >= 2;
  return (
    <section class="card step-panel" aria-label="Step settings" ref={panel}>
      <h2>{stepLabel(step.type)}</h2>
      <Form onSubmit={() => (setSaved(false), void save.run())}>
        <TextInput label="Step name (optional)" name="name" value={name} onValue={setName} error={save.error} />
        <StepFields
          type={step.type}
          draft={draft}
          set={(patch) => (setSaved(false), setDraft({ ...draft, ...patch }))}
          error={save.error}
        />
        <ErrorNote error={save.error} />
        {saved ? <p role="status">Saved.</p> : null}
        <div class="actions">
          <Submit pending={save.pending} busy="Saving…">
            Save step
          </Submit>
          <button type="button" onClick={onCancel}>
            Close
          </button>
        </div>
      </Form>
      <div class="actions panel-delete">
        <ConfirmButton
          label="Delete step"
          confirm={
            withBranches
              ? 'Delete this step and the steps on its branches?'
              : 'Delete this step? What came before it will lead to what came after.'
          }
          danger
          disabled={remove.pending}
          onConfirm={() => remove.run()}
        />
      </div>
      <ErrorNote error={remove.error} />
    </section>
  );
}
