import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { useAction, useLoad } from '../../ui/use-load';
import { AbFields } from './ab-fields';
import { AudienceFields } from './audience-fields';
import { ContentFields, TemplateField } from './content-fields';
import { bodyOf, draftOf, emptyDraft, type Draft } from './draft';
import type { Campaign } from './status';
import { TemplatePreview } from '../templates/preview';
import './campaigns.css';

const types: Array<{ value: Draft['type']; label: string }> = [
  { value: '', label: 'The template’s, else marketing' },
  { value: 'MARKETING', label: 'Marketing (subscribed contacts, unsubscribe link)' },
  { value: 'TRANSACTIONAL', label: 'Transactional (every contact)' },
];

function CampaignForm({ campaign }: { campaign?: Campaign }) {
  const [draft, setDraft] = useState<Draft>(() => (campaign ? draftOf(campaign) : emptyDraft()));
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useAction(async () => {
    const body = bodyOf(draft);
    const saved = campaign
      ? await call(api.PUT('/campaigns/{id}', { params: { path: { id: campaign.id } }, body }))
      : (await call(api.POST('/campaigns', { body }))).data;
    navigate(`/campaigns/${saved.id}`);
  });
  const error = save.error;
  return (
    <div class="compose-layout">
      <Form onSubmit={() => void save.run()} class="form compose">
        <Section title="Campaign">
          <TextInput
            label="Name"
            name="name"
            required
            value={draft.name}
            onValue={(name) => set({ name })}
            error={error}
            hint="Only you see it."
          />
          <Select label="Type" name="type" value={draft.type} options={types} onValue={(type) => set({ type })} error={error} />
        </Section>
        <Section title="Audience">
          <AudienceFields draft={draft} set={set} error={error} />
          <p class="muted">Saving shows how many contacts the audience reaches now; it is counted again until the campaign is sent.</p>
        </Section>
        <Section title="Content">
          <TemplateField draft={draft} set={set} error={error} />
          <ContentFields draft={draft} set={set} error={error} />
        </Section>
        <Section title="A/B test">
          <AbFields draft={draft} set={set} error={error} />
        </Section>
        <ErrorNote error={error} />
        <div class="actions">
          <Submit pending={save.pending} busy="Saving…">
            {campaign ? 'Save changes' : 'Save draft'}
          </Submit>
          <a class="button" href={href(campaign ? `/campaigns/${campaign.id}` : '/campaigns')}>
            Cancel
          </a>
        </div>
      </Form>
      <div class="compose-preview">
        <ComposePreview draft={draft} />
      </div>
    </div>
  );
}

/**
 * The email as a chosen contact would get it: the subject and body written here, or the template's where they
 * are left empty (as the API fills them).
 */
function ComposePreview({ draft }: { draft: Draft }) {
  const template = useLoad(
    () => (draft.templateId ? call(api.GET('/templates/{id}', { params: { path: { id: draft.templateId } } })) : Promise.resolve(null)),
    [draft.templateId],
  );
  return (
    <TemplatePreview
      subject={draft.subject || template.data?.subject || ''}
      body={draft.body || template.data?.body || ''}
      empty="Write a subject and a body, or choose a template, to see the email rendered."
    />
  );
}

export function NewCampaign() {
  return (
    <>
      <PageHeader title="New campaign" />
      <CampaignForm />
    </>
  );
}

export function EditCampaign({ params }: { params: Record<string, string> }) {
  const campaign = useLoad(() => call(api.GET('/campaigns/{id}', { params: { path: { id: params.id! } } })), [params.id]);
  return (
    <>
      <PageHeader title={campaign.data ? `Edit ${campaign.data.name}` : 'Edit campaign'} />
      <WhenLoaded loaded={campaign}>{(c) => <CampaignForm campaign={c} />}</WhenLoaded>
    </>
  );
}
