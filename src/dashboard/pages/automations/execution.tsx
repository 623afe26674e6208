import { api, call } from '../../api/client';
import { href } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote, Loading } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { ago, dateTime } from '../../ui/format';
import { useAction, useLoad, usePoll } from '../../ui/use-load';
import { statusTone, stepLabel, type Execution } from './types';
import './automations.css';

const active = (e: Execution) => e.status === 'RUNNING' || e.status === 'WAITING';

function took(from: string, to: string | null): string {
  if (!to) return '—';
  const ms = new Date(to).getTime() - new Date(from).getTime();
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  return s < 120
    ? `${s} s`
    : s < 7200
      ? `${Math.round(s / 60)} min`
      : s < 172_800
        ? `${Math.round(s / 3600)} h`
        : `${Math.round(s / 86_400)} days`;
}

/** The run's Temporal history, summarized (GET /executions/{id}/history), read again as the execution moves. */
function TemporalHistory({ executionId, version }: { executionId: string; version: string }) {
  const history = useLoad(
    () => call(api.GET('/executions/{id}/history', { params: { path: { id: executionId } } })),
    [executionId, version],
  );
  const h = history.data;
  if (!h) return history.error ? <ErrorNote error={history.error} /> : <Loading />;
  if (!h.retained) return <p>Temporal no longer keeps this run (past the namespace's retention).</p>;
  return (
    <Table
      caption="Temporal history"
      rowKey={(event) => String(event.eventId)}
      rows={h.events}
      columns={[
        { title: 'When', cell: (event) => dateTime(event.at) },
        { title: 'Event', cell: (event) => event.type },
        { title: 'What happened', cell: (event) => event.summary, wide: true },
      ]}
    />
  );
}

/** One execution: where it stands, its step history, its Temporal history, and its run in the Temporal Web UI. */
export function AutomationExecution({ params }: { params: Record<string, string> }) {
  const path = { id: params.id!, executionId: params.executionId! };
  const execution = usePoll(() => call(api.GET('/workflows/{id}/executions/{executionId}', { params: { path } })), 3000, [
    path.id,
    path.executionId,
  ]);
  const config = useLoad(() => call(api.GET('/config')), []);
  const cancel = useAction(async () => {
    await call(api.DELETE('/workflows/{id}/executions/{executionId}', { params: { path } }));
    await execution.reload();
  });
  const e = execution.data;
  if (!e) return execution.error ? <ErrorNote error={execution.error} /> : <Loading />;
  const ui = config.data?.temporalUi;
  return (
    <>
      <p class="crumbs">
        <a href={href('/automations')}>Automations</a> / <a href={href(`/automations/${path.id}/executions`)}>Executions</a>
      </p>
      <PageHeader title={`Execution for ${e.contact?.email ?? e.contactId}`}>
        <Badge tone={statusTone(e.status)}>{e.status}</Badge>
        {active(e) ? (
          <ConfirmButton
            label="Cancel execution"
            confirm="Cancel this execution?"
            danger
            disabled={cancel.pending}
            onConfirm={() => cancel.run()}
          />
        ) : null}
      </PageHeader>
      <ErrorNote error={execution.error ?? cancel.error} />
      <Section title="Summary">
        <dl class="facts">
          <dt>Started</dt>
          <dd>{dateTime(e.startedAt)}</dd>
          <dt>Ended</dt>
          <dd>{dateTime(e.completedAt)}</dd>
          <dt>Entry</dt>
          <dd>{e.entry}</dd>
          <dt>Version</dt>
          <dd>{e.version === null ? '—' : <a href={href(`/automations/${e.workflowId}/versions`)}>Version {e.version}</a>}</dd>
          {e.waitingFor ? (
            <>
              <dt>Waiting for</dt>
              <dd>{e.waitingFor}</dd>
            </>
          ) : null}
          {e.resumesAt ? (
            <>
              <dt>{e.waitingFor ? 'Stops waiting at' : 'Resumes at'}</dt>
              <dd>
                {dateTime(e.resumesAt)} <span class="muted">({ago(e.resumesAt)})</span>
              </dd>
            </>
          ) : null}
          {e.exitReason ? (
            <>
              <dt>Exit reason</dt>
              <dd>{e.exitReason}</dd>
            </>
          ) : null}
          {e.error ? (
            <>
              <dt>Error</dt>
              <dd class="field-error">{e.error}</dd>
            </>
          ) : null}
          <dt>Temporal workflow</dt>
          <dd>
            {ui ? (
              <a
                href={`${ui.url}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(e.temporalWorkflowId)}`}
                target="_blank"
                rel="noreferrer"
              >
                Open the run in the Temporal Web UI
              </a>
            ) : null}{' '}
            <code>{e.temporalWorkflowId}</code>
          </dd>
        </dl>
        <details>
          <summary>Context</summary>
          <pre>{JSON.stringify(e.context, null, 2)}</pre>
        </details>
      </Section>
      <Section title="Step history">
        <Table
          caption="Step history"
          rowKey={(h) => `${h.stepId}${h.startedAt}`}
          rows={e.stepHistory}
          columns={[
            { title: 'Step', cell: (h) => h.name ?? stepLabel(h.type) },
            { title: 'Status', cell: (h) => <Badge tone={statusTone(h.status)}>{h.status}</Badge> },
            { title: 'Started', cell: (h) => dateTime(h.startedAt), wide: true },
            { title: 'Took', cell: (h) => took(h.startedAt, h.completedAt) },
            {
              title: 'Output',
              cell: (h) => (
                <>
                  {h.output ? <pre class="output">{JSON.stringify(h.output, null, 2)}</pre> : null}
                  {typeof h.output?.emailId === 'string' ? (
                    // The email's delivery, opens and clicks are in the contact's activity.
                    <a href={href('/activity', { contact: e.contactId, email: e.contact?.email ?? e.contactId })}>The email's activity</a>
                  ) : null}
                  {h.error ? <p class="field-error">{h.error}</p> : null}
                </>
              ),
            },
          ]}
        />
      </Section>
      <Section title="Temporal history">
        <TemporalHistory executionId={e.id} version={`${e.status} ${e.updatedAt}`} />
      </Section>
    </>
  );
}
