import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { ErrorNote } from '../../ui/feedback';
import { Field, Form, Submit } from '../../ui/form';
import { Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';
import type { Segment } from './types';

const emailsIn = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** Adds or removes members of a STATIC segment by email address. */
export function StaticMembers({ id, onChange }: { id: string; onChange: (segment: Segment) => void }) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState('');
  const reload = async () => onChange(await call(api.GET('/segments/{id}', { params: { path: { id } } })));
  const add = useAction(async () => {
    const result = await call(api.POST('/segments/{id}/members', { params: { path: { id } }, body: { emails: emailsIn(text) } }));
    setOutcome(`${result.added} added${result.notFound.length ? `; no contact for ${result.notFound.join(', ')}` : ''}.`);
    await reload();
  });
  const remove = useAction(async () => {
    const result = await call(api.DELETE('/segments/{id}/members', { params: { path: { id } }, body: { emails: emailsIn(text) } }));
    setOutcome(`${result.removed} removed.`);
    await reload();
  });
  return (
    <Section title="Change members">
      <Form onSubmit={() => void add.run()}>
        <Field label="Email addresses" name="emails" error={add.error ?? remove.error} hint="Separated by spaces, commas or new lines">
          {(fieldId, describedBy) => (
            <textarea id={fieldId} value={text} aria-describedby={describedBy} onInput={(e) => setText(e.currentTarget.value)} />
          )}
        </Field>
        <div class="actions">
          <Submit pending={add.pending} busy="Adding…">
            Add members
          </Submit>
          <button type="button" disabled={remove.pending} onClick={() => void remove.run()}>
            Remove members
          </button>
          {outcome ? <span role="status">{outcome}</span> : null}
        </div>
      </Form>
      <ErrorNote error={add.error ?? remove.error} />
    </Section>
  );
}
