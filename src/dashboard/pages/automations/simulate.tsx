import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Badge, ErrorNote, Loading } from '../../ui/feedback';
import { Field, Form, Select, Submit, TextInput } from '../../ui/form';
import { Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';
import { UNITS } from '../../filters/model';
import { AutomationHeader, useWorkflow } from './header';
import { jsonObject } from './json-input';
import { statusTone, stepLabel, type Simulation, type WorkflowDetail } from './types';
import './automations.css';

type Json = Record<string, never>;
interface LaterEvent {
  amount: string;
  unit: 'minutes' | 'hours' | 'days';
  event: string;
}

/** An ISO 8601 duration of the simulation (`P2DT3H`) in words. */
function inWords(iso: string | null): string {
  if (!iso) return '—';
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m) return iso;
  const parts = (['day', 'hour', 'minute', 'second'] as const).flatMap((unit, i) => {
    const n = Number(m[i + 1] ?? 0);
    return n > 0 ? [`${n} ${unit}${n === 1 ? '' : 's'}`] : [];
  });
  return parts.length === 0 ? 'at once' : parts.join(' ');
}

function Timeline({ simulation, workflow }: { simulation: Simulation; workflow: WorkflowDetail }) {
  const stepName = (id: string) => workflow.steps.find((s) => s.id === id)?.name;
  return (
    <Section title="Simulated timeline">
      <p role="status">
        Ends <Badge tone={statusTone(simulation.status)}>{simulation.status}</Badge>; simulated time:{' '}
        {inWords(simulation.endedAfter ?? simulation.simulatedFor)} ({simulation.wallMs} ms to simulate).
      </p>
      <ol class="simulation-timeline" aria-label="Steps reached">
        {simulation.steps.map((s, i) => (
          <li key={`${s.stepId}${i}`}>
            <span class="simulation-at">{inWords(s.startedAfter)}</span>
            <div>
              {(s.name ?? stepName(s.stepId)) ? <strong>{s.name ?? stepName(s.stepId)} </strong> : null}
              <span class="muted">{stepLabel(s.type)}</span> <Badge tone={statusTone(s.status)}>{s.status}</Badge>
              {s.branch ? <span> → branch {s.branch}</span> : null}
              {s.outcome ? <span> → {s.outcome === 'EVENT' ? 'event arrived' : 'timed out'}</span> : null}
              {s.endedAfter && s.endedAfter !== s.startedAfter ? <span class="muted"> (until {inWords(s.endedAfter)})</span> : null}
              {s.email ? (
                <p>
                  Email to {s.email.to} from {s.email.from}: “{s.email.subject}”
                </p>
              ) : null}
              {s.webhook ? (
                <p>
                  {s.webhook.method} {s.webhook.url} answered {s.webhook.response.status}
                </p>
              ) : null}
              {s.contact ? <pre class="output">{JSON.stringify(s.contact, null, 2)}</pre> : null}
              {s.error ? <p class="field-error">{s.error}</p> : null}
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** POST /workflows/{id}/simulate for a hypothetical contact and events, shown as a timeline; nothing is sent or stored. */
export function AutomationSimulation({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const workflow = useWorkflow(id);
  const [email, setEmail] = useState('ada@example.com');
  const [data, setData] = useState('');
  const [triggerData, setTriggerData] = useState('');
  const [events, setEvents] = useState<LaterEvent[]>([]);
  const [until, setUntil] = useState('');
  const [result, setResult] = useState<Simulation | null>(null);
  const run = useAction(async () => {
    const w = workflow.data!;
    const body = {
      contact: { email, data: jsonObject(data, 'contact.data') as Json },
      ...(w.triggerType === 'EVENT'
        ? { trigger: { event: w.triggerConfig.eventName ?? '', data: jsonObject(triggerData, 'trigger.data') as Json } }
        : {}),
      events: events.map((e) => ({ after: `${e.amount} ${e.unit}`, event: e.event })),
      ...(until.trim() ? { until: `${until.trim()} days` } : {}),
    };
    setResult(null);
    setResult(await call(api.POST('/workflows/{id}/simulate', { params: { path: { id } }, body })));
  });
  const w = workflow.data;
  if (!w) return workflow.error ? <ErrorNote error={workflow.error} /> : <Loading />;
  const change = (i: number, patch: Partial<LaterEvent>) => setEvents(events.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  return (
    <>
      <AutomationHeader workflow={w} tab="/simulate" />
      <Section title="Scenario">
        <p class="muted">Runs the automation on a virtual clock for a sample contact: no email is sent and nothing is stored.</p>
        <Form onSubmit={() => void run.run()}>
          <TextInput label="Contact's email" name="contact.email" type="email" value={email} onValue={setEmail} error={run.error} />
          <Field label="Contact's fields (JSON)" name="contact.data" error={run.error} hint='e.g. {"plan": "pro"}'>
            {(fid, describedBy) => (
              <textarea id={fid} rows={2} aria-describedby={describedBy} value={data} onInput={(e) => setData(e.currentTarget.value)} />
            )}
          </Field>
          {w.triggerType === 'EVENT' ? (
            <Field label={`Data of the “${w.triggerConfig.eventName ?? ''}” event (JSON)`} name="trigger.data" error={run.error}>
              {(fid, describedBy) => (
                <textarea
                  id={fid}
                  rows={2}
                  aria-describedby={describedBy}
                  value={triggerData}
                  onInput={(e) => setTriggerData(e.currentTarget.value)}
                />
              )}
            </Field>
          ) : null}
          <fieldset>
            <legend>Events the contact tracks later</legend>
            {events.map((e, i) => (
              <div class="form inline" key={i}>
                <TextInput
                  label={`Event ${i + 1}`}
                  name={`events.${i}.event`}
                  value={e.event}
                  onValue={(event) => change(i, { event })}
                  error={run.error}
                />
                <TextInput
                  label={`After (event ${i + 1})`}
                  type="number"
                  min={0}
                  name={`events.${i}.after`}
                  value={e.amount}
                  onValue={(amount) => change(i, { amount })}
                  error={run.error}
                />
                <Select label={`Unit (event ${i + 1})`} value={e.unit} options={UNITS} onValue={(unit) => change(i, { unit })} />
                <button type="button" onClick={() => setEvents(events.filter((_, j) => j !== i))}>
                  Remove event {i + 1}
                </button>
              </div>
            ))}
            <button type="button" onClick={() => setEvents([...events, { amount: '1', unit: 'days', event: '' }])}>
              Add an event
            </button>
          </fieldset>
          <TextInput
            label="Stop after (days, optional)"
            type="number"
            min={1}
            name="until"
            value={until}
            onValue={setUntil}
            error={run.error}
          />
          <ErrorNote error={run.error} />
          <div class="actions">
            <Submit pending={run.pending} busy="Simulating…">
              Run simulation
            </Submit>
          </div>
        </Form>
      </Section>
      {result ? <Timeline simulation={result} workflow={w} /> : null}
    </>
  );
}
