import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { ErrorNote } from '../../ui/feedback';
import { Field, Form, Submit } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { useAction } from '../../ui/use-load';
import { JobProgress } from './job-progress';
import './contacts.css';

type ImportJob = Answer<'/contacts/import/{jobId}', 'get'>;
type RowError = ImportJob['result']['errors'][number];

/** `POST /contacts/import` takes the file as the multipart field `file` (docs/jobs.md "CSV rules"). */
function upload(file: File) {
  return call(
    api.POST('/contacts/import', {
      // The schema types a binary field as a string; the real body is the FormData built below.
      body: { file: file.name },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', file);
        return form;
      },
    }),
  );
}

/** Upload a CSV, follow its import job to the end, and show what became of every row. */
export function ImportContacts() {
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const start = useAction(async () => {
    if (!file) return;
    setJobId(null);
    setJobId((await upload(file)).jobId);
  });
  return (
    <>
      <p>
        <a href={href('/contacts')}>← Contacts</a>
      </p>
      <PageHeader title="Import contacts" />
      <Section title="Upload">
        <p>
          Comma-separated, UTF-8, at most 5 MB, with a header row. An <code>email</code> column is required and an optional{' '}
          <code>subscribed</code> column takes true/false/yes/no/1/0 (without it a new contact is subscribed, and one already here keeps its
          state); every other column becomes a custom field.
        </p>
        <Form onSubmit={() => void start.run()} class="form inline">
          <Field label="CSV file" name="file" error={start.error}>
            {(id, describedBy) => (
              <input
                id={id}
                type="file"
                accept=".csv,text/csv"
                required
                aria-describedby={describedBy}
                onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
              />
            )}
          </Field>
          <Submit pending={start.pending} busy="Uploading…">
            Import
          </Submit>
        </Form>
        <ErrorNote error={start.error} />
      </Section>
      {jobId ? (
        <Section title="Progress">
          <JobProgress key={jobId} label="Import" load={() => call(api.GET('/contacts/import/{jobId}', { params: { path: { jobId } } }))}>
            {(job) => <ImportResult job={job} />}
          </JobProgress>
        </Section>
      ) : null}
    </>
  );
}

function ImportResult({ job }: { job: ImportJob }) {
  const r = job.result;
  return (
    <>
      <dl class="stats">
        {(
          [
            ['Rows', r.totalRows],
            ['Created', r.created],
            ['Updated', r.updated],
            ['Skipped', r.skipped],
            ['Rejected', r.failed],
          ] as const
        ).map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{n.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {job.state === 'completed' ? (
        <p>
          <a href={href('/contacts')}>See the contacts</a>
        </p>
      ) : null}
      {r.errors.length > 0 ? (
        <div class="import-errors">
          <h3>Rejected rows{r.failed > r.errors.length ? ` (the first ${r.errors.length})` : ''}</h3>
          <Table<RowError>
            caption="Rejected rows"
            rowKey={(e) => String(e.row)}
            rows={r.errors}
            columns={[
              { title: 'Row', cell: (e) => e.row },
              { title: 'Email', cell: (e) => e.email },
              { title: 'Reason', cell: (e) => e.error },
            ]}
          />
        </div>
      ) : null}
    </>
  );
}
