import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { Badge, Empty, ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Field, Form, Select, Submit, TextInput } from '../../ui/form';
import { Section } from '../../ui/layout';
import { CursorPager, Table, useCursorTrail } from '../../ui/lists';
import { count, percentOf100 } from '../../ui/format';
import { useDebounced } from '../../ui/use-debounced';
import { useAction, useLoad } from '../../ui/use-load';
import { bearer } from './access';

type AdminProject = Answer<'/admin/projects', 'get'>['data'][number];
type Level = AdminProject['levels']['bounce'];
type Status = '' | 'true' | 'false';

const STATUSES: Array<{ value: Status; label: string }> = [
  { value: '', label: 'Every project' },
  { value: 'false', label: 'Active' },
  { value: 'true', label: 'Suspended' },
];
const TONE: Record<Level, 'good' | 'warn' | 'bad'> = { healthy: 'good', warning: 'warn', critical: 'bad' };

function Rate({ value, level }: { value: number; level: Level }) {
  return (
    <>
      {percentOf100(value)} {level === 'healthy' ? null : <Badge tone={TONE[level]}>{level}</Badge>}
    </>
  );
}

/** Suspending (reason required) or reinstating (reason optional) one project, as the API takes it. */
function ActOn({
  token,
  project,
  onDone,
  onCancel,
}: {
  token: string;
  project: AdminProject;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const suspend = !project.disabled;
  const [reason, setReason] = useState('');
  const act = useAction(async () => {
    const path = { id: project.id };
    if (suspend) {
      await call(api.POST('/admin/projects/{id}/suspend', { params: { path }, body: { reason }, headers: bearer(token) }));
      onDone(`${project.name} is suspended: its API keys are refused and its mail waits; its owners are emailed the reason.`);
    } else {
      const body = reason.trim() ? { reason } : {};
      await call(api.POST('/admin/projects/{id}/reinstate', { params: { path }, body, headers: bearer(token) }));
      onDone(`${project.name} is reinstated: the mail that waited goes now, each email once; its owners are emailed.`);
    }
  });
  return (
    <Section title={`${suspend ? 'Suspend' : 'Reinstate'} ${project.name}`}>
      <p class="muted">
        {suspend
          ? 'Its keys are refused and nothing is sent until it is reinstated; queued emails, campaigns and automation emails wait, nothing is lost. The owners are emailed the reason.'
          : 'Its keys work again and the mail that waited goes, each email once. The owners are emailed, with the reason when one is given.'}
      </p>
      <Form onSubmit={() => void act.run()}>
        <Field
          label={suspend ? 'Reason' : 'Reason (optional)'}
          name="reason"
          error={act.error}
          hint="Told to the owners and kept in the audit; up to 500 characters."
        >
          {(id, describedBy) => (
            <textarea
              id={id}
              rows={3}
              maxLength={500}
              required={suspend}
              aria-describedby={describedBy}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              autoFocus
            />
          )}
        </Field>
        <ErrorNote error={act.error} />
        <div class="actions">
          <Submit pending={act.pending} busy={suspend ? 'Suspending…' : 'Reinstating…'}>
            {suspend ? 'Suspend project' : 'Reinstate project'}
          </Submit>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </Section>
  );
}

/** Every project of the deployment, searched by name or id and filtered by status, paged by the API's cursor. */
export function OperatorProjects({ token, version, changed }: { token: string; version: number; changed: () => void }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Status>('');
  const { trail, setTrail, cursor, restart } = useCursorTrail();
  const [acting, setActing] = useState<AdminProject | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const term = useDebounced(search.trim());
  const page = useLoad(
    () =>
      call(
        api.GET('/admin/projects', {
          params: { query: { search: term || undefined, disabled: status || undefined, cursor, limit: 20 } },
          headers: bearer(token),
        }),
      ),
    [token, term, status, cursor, version],
  );
  const rows = page.data?.data ?? [];
  return (
    <Section title="Projects">
      <div class="toolbar" role="search">
        <TextInput label="Search by name or id" type="search" value={search} onValue={restart(setSearch)} />
        <Select label="Status" value={status} options={STATUSES} onValue={restart(setStatus)} />
      </div>
      {page.data && !cursor ? (
        <p class="muted" role="status">
          {count(page.data.total)} project{page.data.total === 1 ? '' : 's'}
          {term ? ` matching “${term}”` : ''}
        </p>
      ) : null}
      {done ? (
        <Notice tone="good" role="status">
          {done}
        </Notice>
      ) : null}
      <ErrorNote error={page.error} />
      {!page.data ? (
        page.error ? null : (
          <Loading />
        )
      ) : rows.length === 0 ? (
        <Empty>No project matches.</Empty>
      ) : (
        <>
          <Table<AdminProject>
            caption="Projects of this deployment, newest first"
            rowKey={(p) => p.id}
            rows={rows}
            columns={[
              {
                title: 'Project',
                cell: (p) => (
                  <>
                    {p.name}
                    <code class="operators-id muted">{p.id}</code>
                  </>
                ),
              },
              { title: 'Owners', cell: (p) => p.owners.join(', ') || '—', wide: true },
              { title: 'Sent', cell: (p) => count(p.sent), wide: true },
              { title: 'Bounces', cell: (p) => <Rate value={p.bounceRate} level={p.levels.bounce} /> },
              { title: 'Complaints', cell: (p) => <Rate value={p.complaintRate} level={p.levels.complaint} /> },
              {
                title: 'Status',
                cell: (p) =>
                  p.disabled ? (
                    <div class="operators-reason">
                      <Badge tone="bad">Suspended</Badge> {p.disabledReason}
                    </div>
                  ) : (
                    <Badge tone="good">Active</Badge>
                  ),
              },
              {
                title: 'Action',
                cell: (p) => (
                  <button
                    type="button"
                    class={p.disabled ? '' : 'danger'}
                    aria-label={`${p.disabled ? 'Reinstate' : 'Suspend'} ${p.name}`}
                    onClick={() => (setActing(p), setDone(null))}
                  >
                    {p.disabled ? 'Reinstate' : 'Suspend'}
                  </button>
                ),
              },
            ]}
          />
          <CursorPager trail={trail} next={page.data.hasMore ? page.data.cursor : null} onMove={setTrail} />
        </>
      )}
      {acting ? (
        <ActOn
          key={`${acting.id}${acting.disabled}`}
          token={token}
          project={acting}
          onCancel={() => setActing(null)}
          onDone={(message) => {
            setActing(null);
            setDone(message);
            changed();
          }}
        />
      ) : null}
    </Section>
  );
}
