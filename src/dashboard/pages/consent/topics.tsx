import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { useProject } from '../../session';
import { ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { useAction, useLoad } from '../../ui/use-load';

export type Topic = Answer<'/topics/{id}', 'get'>;
export type Membership = Topic['defaultMembership'];

export const MEMBERSHIPS: Array<{ value: Membership; label: string }> = [
  { value: 'OUT', label: 'Out until they join' },
  { value: 'IN', label: 'In until they leave' },
];

export const defaultWords = (m: Membership) => (m === 'IN' ? 'in by default' : 'out by default');

/** The project's topics (docs/consent.md "Topics"), at most 100: one page. */
export const loadTopics = async () => (await call(api.GET('/topics', { params: { query: { limit: 100 } } }))).data;

/** The project's topics: contacts choose among them on the preference page, and campaigns and steps can be about one. */
export function Topics() {
  const project = useProject();
  const list = useLoad(loadTopics, [project.id]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [membership, setMembership] = useState<Membership>('OUT');
  const add = useAction(async () => {
    await call(api.POST('/topics', { body: { name, description: description || null, defaultMembership: membership } }));
    setName('');
    setDescription('');
    await list.reload();
  });
  return (
    <>
      <PageHeader title="Topics" />
      <Section title="Add a topic">
        <p>
          Contacts choose the topics they want on the preference page every marketing email links to. A campaign or an automation email
          about a topic goes to its members only, and its unsubscribe link leaves that topic only.
        </p>
        <Form onSubmit={() => void add.run()}>
          <TextInput label="Name" name="name" required maxLength={100} value={name} onValue={setName} error={add.error} />
          <TextInput
            label="Description (optional)"
            name="description"
            maxLength={500}
            hint="Shown under the name on the preference page"
            value={description}
            onValue={setDescription}
            error={add.error}
          />
          <Select
            label="Contacts who never chose are"
            name="defaultMembership"
            value={membership}
            options={MEMBERSHIPS}
            onValue={setMembership}
          />
          <ErrorNote error={add.error} />
          <div class="actions">
            <Submit pending={add.pending} busy="Adding…">
              Add topic
            </Submit>
          </div>
        </Form>
      </Section>
      <WhenLoaded loaded={list}>
        {(topics) => (
          <Table
            caption="Topics"
            rowKey={(t) => t.id}
            rows={topics}
            empty="No topic yet."
            columns={[
              {
                title: 'Topic',
                cell: (t) => (
                  <>
                    <a href={href(`/topics/${t.id}`)}>{t.name}</a>
                    {t.description ? <div class="muted">{t.description}</div> : null}
                  </>
                ),
              },
              { title: 'Default', cell: (t) => defaultWords(t.defaultMembership) },
              { title: 'Members', cell: (t) => t.memberCount.toLocaleString() },
            ]}
          />
        )}
      </WhenLoaded>
    </>
  );
}
