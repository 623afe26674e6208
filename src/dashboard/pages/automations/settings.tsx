import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ErrorNote } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { AutomationGoal } from './goal';
import type { Workflow } from './types';

/** Name, trigger, re-entry and goal of an automation (the panel shown when no step is selected). */
export function AutomationSettings({ workflow, onSaved }: { workflow: Workflow; onSaved: () => void }) {
  const [name, setName] = useState(workflow.name);
  const [trigger, setTrigger] = useState(workflow.triggerType);
  const [eventName, setEventName] = useState(workflow.triggerConfig.eventName ?? '');
  const [allowReentry, setAllowReentry] = useState(workflow.allowReentry);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await call(
      api.PATCH('/workflows/{id}', {
        params: { path: { id: workflow.id } },
        body: { name, triggerType: trigger, triggerConfig: trigger === 'EVENT' ? { eventName } : {}, allowReentry },
      }),
    );
    setSaved(true);
    onSaved();
  });
  return (
    <section class="card step-panel" aria-label="Automation settings">
      <h2>Settings</h2>
      <p class="muted">Choose a step to edit it, or a + to add one.</p>
      <Form onSubmit={() => void save.run()}>
        <TextInput label="Name" name="name" value={name} onValue={setName} error={save.error} />
        <Select
          label="Trigger"
          name="triggerType"
          value={trigger}
          options={[
            { value: 'EVENT', label: 'When an event is tracked' },
            { value: 'MANUAL', label: 'Started by hand' },
          ]}
          onValue={setTrigger}
          error={save.error}
        />
        {trigger === 'EVENT' ? (
          <TextInput label="Trigger event" name="triggerConfig.eventName" value={eventName} onValue={setEventName} error={save.error} />
        ) : null}
        <label class="check">
          <input type="checkbox" checked={allowReentry} onChange={(e) => setAllowReentry(e.currentTarget.checked)} />
          Let a contact enter again after an execution ends (one active execution at a time)
        </label>
        <ErrorNote error={save.error} />
        {saved ? <p role="status">Saved.</p> : null}
        <div class="actions">
          <Submit pending={save.pending} busy="Saving…">
            Save settings
          </Submit>
        </div>
      </Form>
      <AutomationGoal workflow={workflow} onSaved={onSaved} />
    </section>
  );
}
