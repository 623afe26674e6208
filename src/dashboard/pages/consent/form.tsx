import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { CopyButton, CopyText } from '../../ui/actions';
import { DeleteSection } from '../../ui/delete-section';
import { WhenLoaded } from '../../ui/feedback';
import { Field, Form, SaveActions, Select, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { useLoad, useSave } from '../../ui/use-load';
import { FormFields } from './form-fields';
import type { SignupForm } from './forms';
import { loadTopics } from './topics';
import './consent.css';

type Ending = 'text' | 'redirect';

/** The templates that can be a confirmation email: any of the project's, the API checks it shows {{ confirmUrl }}. */
const loadTemplates = async () =>
  (await call(api.GET('/templates', { params: { query: { pageSize: 100, sort: 'name', dir: 'asc' } } }))).data;

function Settings({ form, saved }: { form: SignupForm; saved: () => Promise<void> }) {
  const topics = useLoad(loadTopics, []);
  const templates = useLoad(loadTemplates, []);
  const [name, setName] = useState(form.name);
  const [title, setTitle] = useState(form.title);
  const [submitLabel, setSubmitLabel] = useState(form.submitLabel);
  const [fields, setFields] = useState(form.fields);
  const [topicIds, setTopicIds] = useState(form.topicIds);
  const [doubleOptIn, setDoubleOptIn] = useState(form.doubleOptIn);
  const [templateId, setTemplateId] = useState(form.confirmationTemplateId ?? '');
  const [ending, setEnding] = useState<Ending>(form.redirectUrl ? 'redirect' : 'text');
  const [message, setMessage] = useState(form.successMessage ?? '');
  const [redirectUrl, setRedirectUrl] = useState(form.redirectUrl ?? '');
  const save = useSave(async () => {
    const body = {
      name,
      title,
      submitLabel,
      fields,
      topicIds,
      doubleOptIn,
      confirmationTemplateId: templateId || null,
      successMessage: ending === 'text' && message.trim() ? message : null,
      redirectUrl: ending === 'redirect' ? redirectUrl : null,
    };
    await call(api.PATCH('/forms/{id}', { params: { path: { id: form.id } }, body }));
    await saved();
  });
  const { edited } = save;
  const toggleTopic = (id: string, on: boolean) => edited(setTopicIds)(on ? [...topicIds, id] : topicIds.filter((t) => t !== id));
  return (
    <Section title="Settings">
      <Form onSubmit={() => void save.run()}>
        <TextInput label="Name" name="name" required maxLength={100} value={name} onValue={edited(setName)} error={save.error} />
        <TextInput
          label="Heading of the page"
          name="title"
          required
          maxLength={200}
          value={title}
          onValue={edited(setTitle)}
          error={save.error}
        />
        <TextInput
          label="Button"
          name="submitLabel"
          required
          maxLength={50}
          value={submitLabel}
          onValue={edited(setSubmitLabel)}
          error={save.error}
        />
        <h3>Fields</h3>
        <FormFields fields={fields} onChange={edited(setFields)} error={save.error} />
        <fieldset class="choices">
          <legend>Topics a signup joins</legend>
          <WhenLoaded loaded={topics}>
            {(list) =>
              list.length === 0 ? (
                <p class="muted">
                  The project has no topic yet (<a href={href('/topics')}>Topics</a>).
                </p>
              ) : (
                list.map((t) => (
                  <label key={t.id}>
                    <input type="checkbox" checked={topicIds.includes(t.id)} onChange={(e) => toggleTopic(t.id, e.currentTarget.checked)} />{' '}
                    {t.name}
                  </label>
                ))
              )
            }
          </WhenLoaded>
        </fieldset>
        <fieldset class="choices">
          <legend>Double opt-in</legend>
          <label>
            <input type="checkbox" checked={doubleOptIn} onChange={(e) => edited(setDoubleOptIn)(e.currentTarget.checked)} /> Signups
            confirm by a link mailed to them before they get marketing
          </label>
          {doubleOptIn ? (
            <Select
              label="Confirmation email"
              name="confirmationTemplateId"
              value={templateId}
              options={[{ value: '', label: 'Choose a template' }, ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name }))]}
              onValue={edited(setTemplateId)}
              error={save.error}
            />
          ) : null}
          {doubleOptIn ? (
            <p class="muted">
              The template must show the link: put <code>{'{{ confirmUrl }}'}</code> in its body. It is mailed again once, a day later, with{' '}
              <code>reminder</code> true; the link works for a week.
            </p>
          ) : null}
        </fieldset>
        <Select
          label="After a signup"
          value={ending}
          options={[
            { value: 'text', label: 'Show a thank-you text' },
            { value: 'redirect', label: 'Go to a page of my site' },
          ]}
          onValue={edited(setEnding)}
        />
        {ending === 'text' ? (
          <Field label="Thank-you text (optional)" name="successMessage" error={save.error}>
            {(id, describedBy) => (
              <textarea
                id={id}
                rows={3}
                maxLength={2000}
                aria-describedby={describedBy}
                value={message}
                onInput={(e) => edited(setMessage)(e.currentTarget.value)}
              />
            )}
          </Field>
        ) : (
          <TextInput
            label="Page address"
            name="redirectUrl"
            type="url"
            required
            value={redirectUrl}
            onValue={edited(setRedirectUrl)}
            error={save.error}
          />
        )}
        <SaveActions save={save} />
      </Form>
    </Section>
  );
}

/** The page's own look around the form, for the preview (the hosted page has the same). */
const PREVIEW_STYLE = `<style>body{font-family:system-ui,sans-serif;margin:1.5rem;color:#1d1d1f}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=text],input[type=number],input[type=date]{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #8e8e93;border-radius:6px}
button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:0;background:#1d1d1f;color:#fff}</style>`;

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The saved form as a visitor sees it, in a frame with no rights (no script, no submission), and where it lives. */
function Publish({ form }: { form: SignupForm }) {
  const markup = form.embedHtml.replace(/<script[^>]*><\/script>\s*$/, '');
  return (
    <>
      <Section title="Preview">
        <iframe
          class="form-preview"
          title={`Preview of ${form.name}`}
          sandbox=""
          srcdoc={`${PREVIEW_STYLE}<h1>${escaped(form.title)}</h1>${markup}`}
        />
      </Section>
      <Section title="Publish">
        <p>Its own page:</p>
        <p>
          <CopyText label="page address" value={form.url} />{' '}
          <a href={form.url} target="_blank" rel="noreferrer">
            Open
          </a>
        </p>
        <p>Or paste this snippet where the form goes in a page of your site. It holds no key: the form's id is all it needs.</p>
        <textarea class="snippet" aria-label="Snippet" readOnly rows={10} value={form.embedHtml} />
        <CopyButton label="snippet" value={form.embedHtml} />
      </Section>
    </>
  );
}

/** One signup form: its settings, a preview, and its page and snippet to publish. */
export function SignupFormDetail({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const loaded = useLoad(() => call(api.GET('/forms/{id}', { params: { path: { id } } })), [id]);
  return (
    <>
      <PageHeader title={loaded.data?.name ?? 'Signup form'} back={{ path: '/forms', label: 'All forms' }} />
      <WhenLoaded loaded={loaded}>
        {(form) => (
          <>
            <Settings key={form.id} form={form} saved={loaded.reload} />
            <Publish form={form} />
            <DeleteSection
              what="form"
              name={form.name}
              consequence="Its page and snippet stop taking signups at once. Links already mailed for double opt-in keep working."
              remove={async () => {
                await call(api.DELETE('/forms/{id}', { params: { path: { id } } }));
                navigate('/forms');
              }}
            />
          </>
        )}
      </WhenLoaded>
    </>
  );
}
