import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { navigate } from '../../router';
import { DeleteSection } from '../../ui/delete-section';
import { WhenLoaded } from '../../ui/feedback';
import { Form, SaveActions, Select, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { useLoad, useSave } from '../../ui/use-load';
import { MEMBERSHIPS, type Membership, type Topic } from './topics';

function Settings({ topic, saved }: { topic: Topic; saved: () => Promise<void> }) {
  const [name, setName] = useState(topic.name);
  const [description, setDescription] = useState(topic.description ?? '');
  const [membership, setMembership] = useState<Membership>(topic.defaultMembership);
  const save = useSave(async () => {
    const body = { name, description: description || null, defaultMembership: membership };
    await call(api.PATCH('/topics/{id}', { params: { path: { id: topic.id } }, body }));
    await saved();
  });
  const { edited } = save;
  return (
    <Section title="Settings">
      <Form onSubmit={() => void save.run()}>
        <TextInput label="Name" name="name" required maxLength={100} value={name} onValue={edited(setName)} error={save.error} />
        <TextInput
          label="Description (optional)"
          name="description"
          maxLength={500}
          value={description}
          onValue={edited(setDescription)}
          error={save.error}
        />
        <Select
          label="Contacts who never chose are"
          name="defaultMembership"
          value={membership}
          options={MEMBERSHIPS}
          onValue={edited(setMembership)}
          error={save.error}
        />
        <p class="muted">Changing the default moves every contact who never chose; those who chose keep their choice.</p>
        <SaveActions save={save} />
      </Form>
    </Section>
  );
}

/** One topic: its settings and member count; deleted unless a campaign, form or automation still names it. */
export function TopicDetail({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const loaded = useLoad(() => call(api.GET('/topics/{id}', { params: { path: { id } } })), [id]);
  return (
    <>
      <PageHeader title={loaded.data?.name ?? 'Topic'} back={{ path: '/topics', label: 'All topics' }} />
      <WhenLoaded loaded={loaded}>
        {(topic) => (
          <>
            <p role="status">
              {topic.memberCount.toLocaleString()} {topic.memberCount === 1 ? 'contact is' : 'contacts are'} in this topic.
            </p>
            <Settings key={topic.id} topic={topic} saved={loaded.reload} />
            <DeleteSection
              what="topic"
              name={topic.name}
              consequence="Deleting forgets every contact's choice of it. A topic a campaign not yet sent, a form or an automation names cannot be deleted."
              remove={async () => {
                await call(api.DELETE('/topics/{id}', { params: { path: { id } } }));
                navigate('/topics');
              }}
            />
          </>
        )}
      </WhenLoaded>
    </>
  );
}
