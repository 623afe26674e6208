import { useState } from 'preact/hooks';
import { api, ApiFailure, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Field, Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { DeleteSection } from '../../ui/delete-section';
import { useAction, useLoad } from '../../ui/use-load';
import { SenderAddress } from '../domains/sender-address';
import { senderOf } from '../domains/sender';
import { TemplatePreview } from './preview';
import { TEMPLATE_TYPES, type Template, type TemplateFields } from './types';
import { TemplateUsage } from './usage';
import './templates.css';

const STARTER: TemplateFields = {
  name: '',
  subject: 'Hello {{ firstName ?? "there" }}',
  body: '<h1>Hello {{ firstName ?? "there" }}</h1>\n<p>…</p>\n<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>',
  from: '',
  type: 'MARKETING',
};

const fieldsOf = (t: Template): TemplateFields => ({
  name: t.name,
  description: t.description,
  subject: t.subject,
  body: t.body,
  from: t.from,
  fromName: t.fromName,
  replyTo: t.replyTo,
  type: t.type,
});

/**
 * The required fields left empty, refused here in the API's own wording and beside each field, before any
 * request: the API would refuse them the same way after a round trip.
 */
function missing(fields: TemplateFields): ApiFailure | null {
  const problems = (
    [
      ['name', 'Name is required'],
      ['subject', 'Subject is required'],
      ['from', 'From address is required'],
    ] as const
  )
    .filter(([key]) => !fields[key]?.trim())
    .map(([field, message]) => ({ field, message }));
  return problems.length ? new ApiFailure(422, 'VALIDATION_ERROR', problems.map((p) => p.message).join('; '), undefined, problems) : null;
}

/** A MARKETING body should link to the unsubscribe page (docs/templates.md): the header alone is hidden by some clients. */
const lacksUnsubscribe = (fields: TemplateFields) => (fields.type ?? 'MARKETING') === 'MARKETING' && !/unsubscribeUrl/.test(fields.body);

/** Optional fields left blank are cleared (`null`), as the API takes them. */
const blankToNull = (value: string | null | undefined) => (value && value.trim() !== '' ? value : null);

/** `/templates/new` and `/templates/:id`: the fields, the body, a live preview for a chosen contact, and the usage. */
export function TemplateEditor({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const loaded = useLoad(async () => (id ? call(api.GET('/templates/{id}', { params: { path: { id } } })) : null), [id]);
  if (id && !loaded.data) return loaded.error ? <ErrorNote error={loaded.error} /> : <Loading />;
  return <EditorForm template={loaded.data ?? null} />;
}

function EditorForm({ template }: { template: Template | null }) {
  const [fields, setFields] = useState<TemplateFields>(template ? fieldsOf(template) : STARTER);
  const [saved, setSaved] = useState(false);
  const [sender, setSender] = useState(senderOf(template?.from));
  const set = (patch: Partial<TemplateFields>) => {
    setFields({ ...fields, ...patch });
    setSaved(false);
  };
  const save = useAction(async () => {
    const from = sender.local.trim() && sender.domain ? `${sender.local.trim()}@${sender.domain}` : '';
    const refused = missing({ ...fields, from });
    if (refused) throw refused;
    const body = {
      ...fields,
      from,
      description: blankToNull(fields.description),
      fromName: blankToNull(fields.fromName),
      replyTo: blankToNull(fields.replyTo),
    };
    if (template) await call(api.PATCH('/templates/{id}', { params: { path: { id: template.id } }, body }));
    else {
      const created = await call(api.POST('/templates', { body }));
      navigate(`/templates/${created.id}`);
    }
    setSaved(true);
  });
  const duplicate = useAction(async () => {
    if (!template) return;
    const copy = await call(api.POST('/templates/{id}/duplicate', { params: { path: { id: template.id } } }));
    navigate(`/templates/${copy.id}`);
  });
  const text = (key: 'name' | 'subject' | 'fromName' | 'replyTo' | 'description') => (value: string) => set({ [key]: value });
  return (
    <>
      <PageHeader title={template ? template.name : 'New template'}>
        {template ? (
          <button type="button" disabled={duplicate.pending} aria-busy={duplicate.pending} onClick={() => void duplicate.run()}>
            {duplicate.pending ? 'Duplicating…' : 'Duplicate'}
          </button>
        ) : null}
        <a href={href('/templates')}>All templates</a>
      </PageHeader>
      <ErrorNote error={duplicate.error} />
      <div class="template-editor">
        <Form onSubmit={() => void save.run()} class="form">
          <TextInput label="Name" name="name" required value={fields.name} onValue={text('name')} error={save.error} />
          <TextInput
            label="Description"
            name="description"
            value={fields.description ?? ''}
            onValue={text('description')}
            error={save.error}
          />
          <TextInput
            label="Subject"
            name="subject"
            required
            value={fields.subject}
            onValue={text('subject')}
            error={save.error}
            hint="Liquid, rendered as plain text"
          />
          <SenderAddress
            label="From address"
            name="from"
            sender={sender}
            onSender={(change) => {
              setSender((current) => ({ ...current, ...change }));
              setSaved(false);
            }}
            error={save.error}
            placeholder="hello"
            hint="The part before @, on a verified sender domain of this project"
          />
          <TextInput label="From name" name="fromName" value={fields.fromName ?? ''} onValue={text('fromName')} error={save.error} />
          <div class="form-row">
            <TextInput
              label="Reply-to"
              name="replyTo"
              type="email"
              value={fields.replyTo ?? ''}
              onValue={text('replyTo')}
              error={save.error}
            />
            <Select
              label="Type"
              name="type"
              value={fields.type ?? 'MARKETING'}
              options={TEMPLATE_TYPES}
              onValue={(type) => set({ type })}
              error={save.error}
            />
          </div>
          <Field
            label="HTML body"
            name="body"
            error={save.error}
            hint="HTML with Liquid: {{ plan }}, {{ contact.email }}, {% if %}…; values are escaped unless piped through raw"
          >
            {(fieldId, describedBy) => (
              <textarea
                id={fieldId}
                name="body"
                class="template-body"
                spellcheck={false}
                value={fields.body}
                aria-describedby={describedBy}
                onInput={(e) => set({ body: e.currentTarget.value })}
              />
            )}
          </Field>
          {lacksUnsubscribe(fields) ? (
            <Notice tone="warn" role="note">
              A marketing template should let people unsubscribe: link to <code>{'{{ unsubscribeUrl }}'}</code> in the body. Transactional
              mail (receipts, resets) needs no such link: choose that type instead.
            </Notice>
          ) : null}
          <ErrorNote error={save.error} />
          <div class="actions">
            <Submit pending={save.pending} busy="Saving…">
              {template ? 'Save' : 'Create template'}
            </Submit>
            {saved && !save.pending ? (
              <span role="status" class="muted">
                Saved.
              </span>
            ) : null}
          </div>
        </Form>
        <TemplatePreview subject={fields.subject} body={fields.body} />
      </div>
      {template ? (
        <>
          <TemplateUsage id={template.id} />
          <DeleteSection
            what="template"
            name={template.name}
            consequence="A template that a workflow step sends cannot be deleted; campaigns keep their own copy."
            remove={async () => {
              await call(api.DELETE('/templates/{id}', { params: { path: { id: template.id } } }));
              navigate('/templates');
            }}
          />
        </>
      ) : null}
    </>
  );
}
