import { useState } from 'preact/hooks';
import { api, call, type ApiFailure } from '../../api/client';
import { ErrorNote } from '../../ui/feedback';
import { Field, Select, TextInput } from '../../ui/form';
import { useLoad } from '../../ui/use-load';
import type { Draft } from './draft';
import { SenderAddress } from '../domains/sender-address';
import type { Sender } from '../domains/sender';

type Props = { draft: Draft; set: (patch: Partial<Draft>) => void; error: ApiFailure | null };

/** The template to start from, searched by the API; the fields left empty below come from it. */
export function TemplateField({ draft, set, error }: Props) {
  const [search, setSearch] = useState('');
  const templates = useLoad(
    () => call(api.GET('/templates', { params: { query: { search: search || undefined, pageSize: 20, sort: 'name', dir: 'asc' } } })),
    [search],
  );
  const rows = templates.data?.data ?? [];
  const options = [{ value: '', label: 'No template: write it here' }, ...rows.map((t) => ({ value: t.id, label: t.name }))];
  if (draft.templateId && !rows.some((t) => t.id === draft.templateId))
    options.push({ value: draft.templateId, label: 'The chosen template' });
  return (
    <div class="template-picker">
      <TextInput label="Find a template" type="search" value={search} onValue={setSearch} placeholder="Name or subject" />
      <Select
        label="Template"
        name="templateId"
        value={draft.templateId}
        options={options}
        onValue={(templateId) => set({ templateId })}
        error={error}
      />
      <ErrorNote error={templates.error} />
    </div>
  );
}

/** The draft fields of the sender's parts that changed, and only those. */
const draftOfSender = ({ local, domain }: Partial<Sender>): Partial<Draft> => ({
  ...(local !== undefined && { fromLocal: local }),
  ...(domain !== undefined && { fromDomain: domain }),
});

/** Sender, subject and body. The sender's domain is chosen among the project's verified domains. */
export function ContentFields({ draft, set, error }: Props) {
  const fromTemplate = draft.templateId ? ' Leave empty to use the template’s.' : '';
  return (
    <>
      <SenderAddress
        label="Sender address"
        name="from"
        sender={{ local: draft.fromLocal, domain: draft.fromDomain }}
        onSender={(change) => set(draftOfSender(change))}
        error={error}
        placeholder="news"
        hint={`The part before @.${fromTemplate}`}
      />
      <TextInput label="Sender name" name="fromName" value={draft.fromName} onValue={(fromName) => set({ fromName })} error={error} />
      <TextInput
        label="Reply-to address"
        name="replyTo"
        type="email"
        value={draft.replyTo}
        onValue={(replyTo) => set({ replyTo })}
        error={error}
      />
      <TextInput
        label="Subject"
        name="subject"
        value={draft.subject}
        onValue={(subject) => set({ subject })}
        error={error}
        hint={`Liquid, e.g. Hello {{ firstName ?? "there" }}.${fromTemplate}`}
      />
      <Field
        label="Body (HTML with Liquid)"
        name="body"
        error={error}
        hint={`{{ unsubscribeUrl }} links to the recipient's unsubscribe page.${fromTemplate}`}
      >
        {(id, describedBy) => (
          <textarea id={id} value={draft.body} aria-describedby={describedBy} onInput={(e) => set({ body: e.currentTarget.value })} />
        )}
      </Field>
    </>
  );
}
