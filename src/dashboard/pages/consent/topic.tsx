import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { DeleteSection } from '../../ui/delete-section';
import { ErrorNote, Loading } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { useAction, useLoad } from '../../ui/use-load';
import { MEMBERSHIPS, type Membership, type Topic } from './topics';

function Settings({ topic, saved }: { topic: Topic; saved: () => Promise<void> }) {
  const [name, setName] = useState(topic.name);
  const [description, setDescription] = useState(topic.description ?? '');
  const [membership, setMembership] = useState<Membership>(topic.defaultMembership);
  const [done, setDone] = useState(false);
  const save = useAction(async () => {
    const body = { name, description: description || null, defaultMembership: membership };
    await call(api.PATCH('/topics/{id}', { params: { path: { id: topic.id } }, body }));
    await saved();
    setDone(true);
  });
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => (set(v), setDone(false));
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
        <ErrorNote error={save.error} />
        <div class="actions">
          <Submit pending={save.pending} busy="Saving…">
            Save
          </Submit>
          {done ? <span role="status">Saved.</span> : null}
        </div>
      </Form>
    </Section>
  );
}

/** One topic: its settings and member count; deleted unless a campaign, form or automation still names it. */
export function TopicDetail({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const loaded = useLoad(() => call(api.GET('/topics/{id}', { params: { path: { id } } })), [id]);
  const topic = loaded.data;
  return (
    <>
      <PageHeader title={topic?.name ?? 'Topic'}>
        <a class="button" href={href('/topics')}>
          All topics
        </a>
      </PageHeader>
      <ErrorNote error={loaded.error} />
      {!topic ? (
        loaded.error ? null : (
          <Loading />
        )
      ) : (
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
    </>
  );
}
