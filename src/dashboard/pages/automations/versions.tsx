import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Badge, Empty, ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Form, Select, Submit } from '../../ui/form';
import { Section } from '../../ui/layout';
import { OffsetPager } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { navigate } from '../../router';
import { useAction, useLoad, usePoll } from '../../ui/use-load';
import { summary } from './draft';
import { AutomationHeader, useWorkflow } from './header';
import type { Answer } from '../../api/types';
import { stepLabel, type StepType } from './types';
import './automations.css';

type Version = Answer<'/workflows/{id}/versions', 'get'>['data'][number];
type VersionStep = Version['steps'][number];
type Migrated = Answer<'/workflows/{id}/versions/{version}/migrate', 'post'>;

type TemplateName = (id: string) => string | undefined;

/** "Wait for a time: 2 days", with the step's name when it has one. */
const stepWords = (step: VersionStep, templateName: TemplateName) => {
  const words = summary(step.type as StepType, step.config as unknown as Record<string, unknown>, templateName);
  return `${step.name ? `${step.name} (${stepLabel(step.type)})` : stepLabel(step.type)}${words ? `: ${words}` : ''}`;
};

const LEAVE = '';

/**
 * POST /workflows/{id}/versions/{v}/migrate: for each step of the old version, the step of the latest version its
 * waiting executions continue at (preset to the same step where the latest version still has it), or none.
 */
function MigrateForm({
  workflowId,
  from,
  latest,
  onDone,
  templateName,
}: {
  workflowId: string;
  from: Version;
  latest: Version;
  onDone: (result: Migrated) => void;
  templateName: TemplateName;
}) {
  const [map, setMap] = useState<Record<string, string>>(() =>
    Object.fromEntries(from.steps.map((s) => [s.id, latest.steps.some((l) => l.id === s.id) ? s.id : LEAVE])),
  );
  const migrate = useAction(async () => {
    const chosen = Object.fromEntries(Object.entries(map).filter(([, to]) => to !== LEAVE));
    const answer = await call(
      api.POST('/workflows/{id}/versions/{version}/migrate', {
        params: { path: { id: workflowId, version: from.number } },
        body: { map: chosen },
      }),
    );
    onDone(answer);
  });
  const targets = [
    { value: LEAVE, label: 'Leave them on this version' },
    ...latest.steps.map((s) => ({ value: s.id, label: `Version ${latest.number}: ${stepWords(s, templateName)}` })),
  ];
  return (
    <Form onSubmit={() => void migrate.run()} class="form migrate-form">
      <p class="muted">
        Executions waiting at a step below continue at the step you choose in version {latest.number}; a step left out keeps its executions
        here. Running executions are not moved.
      </p>
      {from.steps.map((s) => (
        <Select
          key={s.id}
          label={`Waiting at ${stepWords(s, templateName)}`}
          name={`map.${s.id}`}
          value={map[s.id] ?? LEAVE}
          options={targets}
          onValue={(to) => setMap({ ...map, [s.id]: to })}
          error={migrate.error}
        />
      ))}
      <ErrorNote error={migrate.error} />
      <div class="actions">
        <Submit pending={migrate.pending} busy="Moving…">
          Move waiting executions to version {latest.number}
        </Submit>
      </div>
    </Form>
  );
}

/** An automation's versions, newest first: what each ran, how many executions are on it, and moving them to the latest. */
export function AutomationVersions({ params, query }: { params: Record<string, string>; query: URLSearchParams }) {
  const id = params.id!;
  const workflow = useWorkflow(id);
  const page = Number(query.get('page') ?? '1') || 1;
  const list = usePoll(() => call(api.GET('/workflows/{id}/versions', { params: { path: { id }, query: { page, pageSize: 20 } } })), 5000, [
    id,
    page,
  ]);
  // The latest version leads the first page; read on its own so that later pages can move executions to it.
  const head = usePoll(
    () => call(api.GET('/workflows/{id}/versions', { params: { path: { id }, query: { page: 1, pageSize: 1 } } })),
    5000,
    [id],
  );
  const latest = head.data?.data[0];
  const [moved, setMoved] = useState<Migrated | null>(null);
  const templates = useLoad(() => call(api.GET('/templates', { params: { query: { pageSize: 100 } } })), []);
  const templateName = (tid: string) => templates.data?.data.find((t) => t.id === tid)?.name;
  const w = workflow.data;
  if (!w) return workflow.error ? <ErrorNote error={workflow.error} /> : <Loading />;
  return (
    <>
      <AutomationHeader workflow={w} tab="/versions" />
      <p class="muted">
        Each time the automation is enabled, or its steps change while it is enabled, its graph becomes a new version. Executions keep the
        version they started with; new ones take the latest.
      </p>
      {moved ? (
        <Notice tone="good" role="status">
          {moved.migrated} execution{moved.migrated === 1 ? '' : 's'} of version {moved.fromVersion} moved to version {moved.toVersion};
          skipped: {moved.skipped.unmapped} at a step not mapped, {moved.skipped.running} running, {moved.skipped.ended} ended meanwhile.
        </Notice>
      ) : null}
      <ErrorNote error={list.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.total === 0 ? (
        <Empty>No versions yet: the first is made when the automation is enabled.</Empty>
      ) : (
        <>
          {list.data.data.map((v) => (
            <Section key={v.number} title={`Version ${v.number}`}>
              <p>
                {v.latest ? <Badge tone="good">Latest</Badge> : null} Published {dateTime(v.createdAt)} · {v.waiting} waiting · {v.running}{' '}
                running
              </p>
              <ol class="version-steps">
                {v.steps.map((s) => (
                  <li key={s.id}>{stepWords(s, templateName)}</li>
                ))}
              </ol>
              {!v.latest && latest && v.waiting > 0 ? (
                <MigrateForm
                  templateName={templateName}
                  workflowId={id}
                  from={v}
                  latest={latest}
                  onDone={(result) => {
                    setMoved(result);
                    void Promise.all([list.reload(), head.reload()]);
                  }}
                />
              ) : null}
            </Section>
          ))}
          <OffsetPager
            page={list.data.page}
            totalPages={list.data.totalPages}
            onPage={(p) => navigate(`/automations/${id}/versions`, { page: p > 1 ? String(p) : undefined })}
          />
        </>
      )}
    </>
  );
}
