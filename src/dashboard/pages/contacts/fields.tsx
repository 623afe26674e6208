import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer, RequestBody } from '../../api/types';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote, Notice, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { percent } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { FieldDetails } from './field-details';
import { fieldName } from './field-name';
import './contacts.css';

type FieldRow = Answer<'/contacts/fields', 'get'>['fields'][number];
type FieldType = RequestBody<'/contacts/fields', 'post'>['type'];

const TYPES: Array<{ value: FieldType; label: string }> = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes/No' },
  { value: 'date', label: 'Date' },
];

/** The project's fields: standard ones, then custom ones with their type and how many contacts have them. */
export function CustomFields() {
  const fields = useLoad(() => call(api.GET('/contacts/fields')), []);
  const [field, setField] = useState('');
  const [type, setType] = useState<FieldType>('string');
  const [open, setOpen] = useState<string | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const create = useAction(async () => {
    await call(api.POST('/contacts/fields', { body: { field, type } }));
    setField('');
    await fields.reload();
  });
  const remove = useAction(async (name: string) => {
    const done = await call(api.DELETE('/contacts/fields/{field}', { params: { path: { field: name } } }));
    setRemoved(`${fieldName(done.field)} removed from ${done.deletedFrom.toLocaleString()} contact${done.deletedFrom === 1 ? '' : 's'}.`);
    if (open === name) setOpen(null);
    await fields.reload();
  });
  return (
    <>
      <PageHeader title="Custom fields" />
      <Section title="New field">
        <p class="muted">
          Fields also appear on their own when contacts get data. Declaring one first fixes its type for segments and automations.
        </p>
        <Form onSubmit={() => void create.run()} class="form inline">
          <TextInput
            label="Field name"
            name="field"
            required
            value={field}
            onValue={setField}
            error={create.error}
            hint="e.g. plan or profile.tier"
          />
          <Select label="Type" name="type" value={type} options={TYPES} onValue={setType} error={create.error} />
          <Submit pending={create.pending} busy="Creating…">
            Create field
          </Submit>
        </Form>
        <ErrorNote error={create.error} />
      </Section>
      {removed ? (
        <Notice tone="good" role="status">
          {removed}
        </Notice>
      ) : null}
      <ErrorNote error={remove.error} />
      <WhenLoaded loaded={fields}>
        {({ fields: rows }) => (
          <Table<FieldRow>
            caption="Contact fields"
            rowKey={(f) => f.field}
            rows={rows}
            columns={[
              {
                title: 'Field',
                cell: (f) => (
                  <>
                    <code>{fieldName(f.field)}</code>
                    {f.isCustom ? null : (
                      <>
                        {' '}
                        <Badge>standard</Badge>
                      </>
                    )}
                  </>
                ),
              },
              { title: 'Type', cell: (f) => TYPES.find((t) => t.value === f.type)?.label ?? f.type },
              { title: 'Contacts with it', cell: (f) => percent(f.coverage), wide: true },
              {
                title: 'Actions',
                cell: (f) => (
                  <span class="row-actions">
                    <button type="button" aria-expanded={open === f.field} onClick={() => setOpen(open === f.field ? null : f.field)}>
                      {open === f.field ? 'Hide' : 'Values'}
                      <span class="sr-only"> of {fieldName(f.field)}</span>
                    </button>
                    {f.isCustom ? (
                      <ConfirmButton
                        label={`Delete ${fieldName(f.field)}`}
                        confirm={`Remove ${fieldName(f.field)} from every contact? Conditions on it stop matching.`}
                        danger
                        onConfirm={() => remove.run(f.field)}
                      />
                    ) : null}
                  </span>
                ),
              },
            ]}
          />
        )}
      </WhenLoaded>
      {open ? <FieldDetails key={open} field={open} /> : null}
    </>
  );
}
