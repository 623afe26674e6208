import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { TreeEditor } from '../../filters/builder';
import { workflowCatalog } from '../../filters/catalog';
import { fromTree, toTree, UNITS, type TreeDraft, type Unit } from '../../filters/model';
import { ErrorNote, Loading } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { useAction, useLoad } from '../../ui/use-load';
import type { RequestBody } from '../../api/types';
import type { Workflow } from './types';

type GoalBody = RequestBody<'/workflows/{id}', 'patch'>['goal'];

/** A filter on the goal event's data starts as one on its amount: the builder offers the keys of event data seen. */
const firstFilter = () => fromTree({ logic: 'AND', groups: [{ filters: [{ field: 'event.amount', operator: 'greaterThan', value: 0 }] }] });

/**
 * The automation's goal (docs/automations.md "Goals"): the event that ends an execution CONVERTED, an optional filter
 * on its data (the filter builder, `event.<key>` value filters) and how long after the start it counts. Empty: none.
 */
export function AutomationGoal({ workflow, onSaved }: { workflow: Workflow; onSaved: () => void }) {
  const goal = workflow.goal;
  const [event, setEvent] = useState(goal?.event ?? '');
  const [filtered, setFiltered] = useState(goal?.filter !== undefined);
  const [tree, setTree] = useState<TreeDraft>(() => (goal?.filter ? fromTree(goal.filter) : firstFilter()));
  const [amount, setAmount] = useState(goal?.window ? String(goal.window.amount) : '');
  const [unit, setUnit] = useState<Unit>(goal?.window?.unit ?? 'days');
  const [saved, setSaved] = useState(false);
  const catalog = useLoad(workflowCatalog, []);
  const save = useAction(async () => {
    setSaved(false);
    const window = amount.trim() === '' ? undefined : { amount: Number(amount), unit };
    const body: GoalBody =
      event.trim() === '' ? null : { event, ...(filtered ? { filter: toTree(tree, () => undefined) } : {}), ...(window ? { window } : {}) };
    await call(api.PATCH('/workflows/{id}', { params: { path: { id: workflow.id } }, body: { goal: body } }));
    setSaved(true);
    onSaved();
  });
  return (
    <Form onSubmit={() => void save.run()}>
      <h3>Goal</h3>
      <p class="muted">When the contact tracks this event, its execution ends as converted, wherever it is. Empty: no goal.</p>
      <TextInput label="Goal event" name="goal.event" value={event} onValue={setEvent} error={save.error} placeholder="purchase" />
      <label class="check">
        <input type="checkbox" checked={filtered} onChange={(e) => setFiltered(e.currentTarget.checked)} />
        Only when the event's data matches
      </label>
      {filtered ? (
        catalog.data ? (
          <fieldset class="condition">
            <legend>The event's data (event.&lt;key&gt;)</legend>
            <TreeEditor tree={tree} catalog={{ ...catalog.data, fields: [], segments: [], topics: [] }} onChange={setTree} />
          </fieldset>
        ) : catalog.error ? (
          <ErrorNote error={catalog.error} />
        ) : (
          <Loading />
        )
      ) : null}
      <div class="form inline">
        <TextInput label="Counts within" name="goal.window.amount" value={amount} onValue={setAmount} error={save.error} type="number" />
        <Select label="Window unit" name="goal.window.unit" value={unit} options={UNITS} onValue={setUnit} error={save.error} />
      </div>
      <ErrorNote error={save.error} />
      {saved ? <p role="status">Goal saved.</p> : null}
      <div class="actions">
        <Submit pending={save.pending} busy="Saving…">
          Save goal
        </Submit>
      </div>
    </Form>
  );
}
