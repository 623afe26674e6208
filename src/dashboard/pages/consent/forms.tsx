import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href, navigate } from '../../router';
import { useProject } from '../../session';
import { Badge, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';

export type SignupForm = Answer<'/forms/{id}', 'get'>;

/** The project's signup forms (docs/consent.md "Signup forms"); a new one opens on its page to be set up. */
export function Forms() {
  const project = useProject();
  const list = useLoad(() => call(api.GET('/forms', { params: { query: { limit: 100 } } })), [project.id]);
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const form = await call(api.POST('/forms', { body: { name } }));
    navigate(`/forms/${form.id}`);
  });
  return (
    <>
      <PageHeader title="Signup forms" />
      <Section title="New form">
        <p>
          A form has a page of its own and a snippet to paste into your site. Signups become subscribed contacts, or, with double opt-in,
          contacts who must confirm by the link mailed to them first.
        </p>
        <Form onSubmit={() => void add.run()} class="form inline">
          <TextInput label="Name" name="name" required maxLength={100} value={name} onValue={setName} error={add.error} />
          <Submit pending={add.pending} busy="Creating…">
            Create form
          </Submit>
        </Form>
        <ErrorNote error={add.error} />
      </Section>
      <WhenLoaded loaded={list}>
        {({ data }) => (
          <Table
            caption="Signup forms"
            rowKey={(f) => f.id}
            rows={data}
            empty="No form yet."
            columns={[
              { title: 'Form', cell: (f) => <a href={href(`/forms/${f.id}`)}>{f.name}</a> },
              { title: 'Opt-in', cell: (f) => (f.doubleOptIn ? <Badge tone="good">double</Badge> : <Badge>single</Badge>) },
              { title: 'Topics', cell: (f) => f.topicIds.length },
              { title: 'Created', cell: (f) => dateTime(f.createdAt), wide: true },
            ]}
          />
        )}
      </WhenLoaded>
    </>
  );
}
