import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, Empty, ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Field, Form, Select, Submit, TextInput } from '../../ui/form';
import { Section } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, usePoll } from '../../ui/use-load';
import { AutomationHeader, useWorkflow } from './header';
import { jsonObject } from './json-input';
import { EXECUTION_STATUSES, statusTone, type ExecutionStatus } from './types';
import './automations.css';

/** POST /workflows/{id}/executions: an enabled automation started by hand for a contact, with a context. */
function StartExecution({ workflowId }: { workflowId: string }) {
  const [email, setEmail] = useState('');
  const [context, setContext] = useState('');
  const start = useAction(async () => {
    const body = { email, context: jsonObject(context, 'context') as Record<string, never> };
    const execution = await call(api.POST('/workflows/{id}/executions', { params: { path: { id: workflowId } }, body }));
    navigate(`/automations/${workflowId}/executions/${execution.id}`);
  });
  return (
    <Section title="Start an execution">
      <Form onSubmit={() => void start.run()}>
        <TextInput label="Contact's email" name="email" type="email" value={email} onValue={setEmail} error={start.error} />
        <Field label="Context (JSON, optional)" name="context" error={start.error} hint="Variables for templates, conditions and webhooks">
          {(id, describedBy) => (
            <textarea id={id} rows={3} aria-describedby={describedBy} value={context} onInput={(e) => setContext(e.currentTarget.value)} />
          )}
        </Field>
        <ErrorNote error={start.error} />
        <div class="actions">
          <Submit pending={start.pending} busy="Starting…">
            Start execution
          </Submit>
        </div>
      </Form>
    </Section>
  );
}

/** An automation's executions, newest first, filtered by status and paged by the API; refreshed while shown. */
export function AutomationExecutions({ params, query }: { params: Record<string, string>; query: URLSearchParams }) {
  const id = params.id!;
  const workflow = useWorkflow(id);
  const page = Number(query.get('page') ?? '1') || 1;
  const status = (query.get('status') ?? '') as ExecutionStatus | '';
  const go = (next: { page?: number; status?: string }) =>
    navigate(`/automations/${id}/executions`, { status, ...next, page: next.page && next.page > 1 ? String(next.page) : undefined });
  const list = usePoll(
    () =>
      call(api.GET('/workflows/{id}/executions', { params: { path: { id }, query: { page, pageSize: 20, status: status || undefined } } })),
    3000,
    [id, page, status],
  );
  const cancelAll = useAction(async () => {
    const { cancelled } = await call(api.POST('/workflows/{id}/executions/cancel-all', { params: { path: { id } } }));
    await list.reload();
    return cancelled;
  });
  const [cancelled, setCancelled] = useState<number | null>(null);
  const w = workflow.data;
  if (!w) return workflow.error ? <ErrorNote error={workflow.error} /> : <Loading />;
  return (
    <>
      <AutomationHeader workflow={w} tab="/executions">
        <ConfirmButton
          label="Cancel active executions"
          confirm="Cancel every running or waiting execution?"
          danger
          disabled={cancelAll.pending}
          onConfirm={async () => setCancelled((await cancelAll.run()) ?? null)}
        />
      </AutomationHeader>
      <ErrorNote error={cancelAll.error} />
      {cancelled !== null ? (
        <Notice tone="good" role="status">
          {cancelled} execution{cancelled === 1 ? '' : 's'} cancelled.
        </Notice>
      ) : null}
      <div class="toolbar">
        <Select
          label="Status"
          value={status}
          options={[
            { value: '' as const, label: 'All' },
            ...EXECUTION_STATUSES.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() })),
          ]}
          onValue={(s) => go({ status: s })}
        />
      </div>
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.total === 0 ? (
        <Empty>{status ? `No ${status.toLowerCase()} executions.` : 'No executions yet.'}</Empty>
      ) : (
        <>
          <p class="muted" role="status">
            {list.data.total} execution{list.data.total === 1 ? '' : 's'}
          </p>
          <Table
            caption="Executions"
            rowKey={(e) => e.id}
            rows={list.data.data}
            columns={[
              {
                title: 'Contact',
                cell: (e) => <a href={href(`/automations/${id}/executions/${e.id}`)}>{e.contact?.email ?? e.contactId}</a>,
              },
              { title: 'Status', cell: (e) => <Badge tone={statusTone(e.status)}>{e.status}</Badge> },
              {
                title: 'Current step',
                cell: (e) => (
                  <>
                    {e.currentStep?.name ?? e.currentStep?.type ?? '—'}
                    {e.resumesAt ? <span class="muted"> until {dateTime(e.resumesAt)}</span> : null}
                  </>
                ),
                wide: true,
              },
              { title: 'Version', cell: (e) => (e.version === null ? '—' : String(e.version)), wide: true },
              { title: 'Started', cell: (e) => dateTime(e.startedAt) },
              { title: 'Ended', cell: (e) => dateTime(e.completedAt), wide: true },
            ]}
          />
          <OffsetPager page={list.data.page} totalPages={list.data.totalPages} onPage={(p) => go({ page: p })} />
        </>
      )}
      {w.enabled ? <StartExecution workflowId={id} /> : <p class="muted">Enable the automation to start executions by hand.</p>}
    </>
  );
}
