import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { useProject } from '../../session';
import { ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, usePoll } from '../../ui/use-load';
import { DomainStatus } from './status';

/** The project's sender domains; the list follows the background checks while one is pending. */
export function Domains() {
  const project = useProject();
  const domains = usePoll(
    () => call(api.GET('/domains/project/{projectId}', { params: { path: { projectId: project.id } } })),
    10_000,
    [project.id],
    (list) => !!list?.some((d) => !d.verified),
  );
  const [name, setName] = useState('');
  const add = useAction(async () => {
    const domain = await call(api.POST('/domains', { body: { domain: name } }));
    navigate(`/domains/${domain.id}`);
  });
  return (
    <>
      <PageHeader title="Domains" />
      <Section title="Add a sender domain">
        <p>Campaigns and emails are sent only from domains you have proven you control, with a DNS record we give you.</p>
        <Form onSubmit={() => void add.run()} class="form inline">
          <TextInput
            label="Domain"
            name="domain"
            placeholder="mail.example.com"
            required
            value={name}
            onValue={setName}
            error={add.error}
          />
          <Submit pending={add.pending} busy="Adding…">
            Add domain
          </Submit>
        </Form>
        <ErrorNote error={add.error} />
      </Section>
      <WhenLoaded loaded={domains}>
        {(rows) => (
          <Table
            caption="Sender domains"
            rowKey={(d) => d.id}
            rows={rows}
            empty="No sender domain yet."
            columns={[
              { title: 'Domain', cell: (d) => <a href={href(`/domains/${d.id}`)}>{d.domain}</a> },
              { title: 'Status', cell: (d) => <DomainStatus domain={d} /> },
              { title: 'Last checked', cell: (d) => dateTime(d.lastCheckedAt), wide: true },
              { title: 'Added', cell: (d) => dateTime(d.createdAt), wide: true },
            ]}
          />
        )}
      </WhenLoaded>
    </>
  );
}
