import { useState } from 'preact/hooks';
import type { ApiFailure } from '../../api/client';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { Select, TextInput } from '../../ui/form';
import { useLoad, useReloadOnFocus } from '../../ui/use-load';
import type { Draft } from './draft';
import type { StepType } from './types';
import { TreeEditor } from '../../filters/builder';
import { workflowCatalog } from '../../filters/catalog';
import { UNITS } from '../../filters/model';
import { ErrorNote, Loading } from '../../ui/feedback';
import { loadTopics } from '../consent/topics';

interface Props {
  type: StepType;
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  error: ApiFailure | null;
}

/**
 * Templates found by the server's search, with the chosen one kept in the list. A template can be written in a
 * new tab without leaving the graph: the list is read again when this window has the focus back.
 */
function TemplatePicker({ draft, set, error }: Omit<Props, 'type'>) {
  const [search, setSearch] = useState('');
  const found = useLoad(() => call(api.GET('/templates', { params: { query: { search: search || undefined, pageSize: 50 } } })), [search]);
  useReloadOnFocus(found.reload);
  const topics = useLoad(loadTopics, []);
  const options = (found.data?.data ?? []).map((t) => ({ value: t.id, label: t.name }));
  if (draft.templateId && !options.some((o) => o.value === draft.templateId))
    options.unshift({ value: draft.templateId, label: 'The chosen template' });
  return (
    <>
      <TextInput label="Find a template" type="search" value={search} onValue={setSearch} />
      <Select
        label="Template"
        name="config.templateId"
        value={draft.templateId}
        options={[{ value: '', label: found.loading ? 'Loading…' : 'Choose a template' }, ...options]}
        onValue={(templateId) => set({ templateId })}
        error={error}
      />
      <p class="muted">
        <a href={href('/templates/new')} target="_blank" rel="noopener">
          Write a new template
        </a>{' '}
        in a new tab; it is offered here once saved.
      </p>
      <Select
        label="Send to"
        name="config.recipient"
        value={draft.recipient}
        options={[
          { value: 'CONTACT', label: 'The contact' },
          { value: 'CUSTOM', label: 'Another address' },
        ]}
        onValue={(recipient) => set({ recipient })}
        error={error}
      />
      {draft.recipient === 'CUSTOM' ? (
        <TextInput
          label="Address"
          type="email"
          name="config.recipient.email"
          value={draft.recipientEmail}
          onValue={(recipientEmail) => set({ recipientEmail })}
          error={error}
        />
      ) : null}
      {topics.data && topics.data.length > 0 ? (
        <Select
          label="About a topic (MARKETING templates)"
          name="config.topicId"
          value={draft.topicId}
          options={[{ value: '', label: 'No topic' }, ...topics.data.map((t) => ({ value: t.id, label: `${t.name}: its members only` }))]}
          onValue={(topicId) => set({ topicId })}
          error={error}
        />
      ) : null}
      <div class="form inline">
        <TextInput
          label="Quiet hours from"
          type="time"
          name="config.quietHours.from"
          hint="Local time of the contact (data.timezone, else the project's zone): the email waits until the end."
          value={draft.quietFrom}
          onValue={(quietFrom) => set({ quietFrom })}
          error={error}
        />
        <TextInput
          label="Quiet hours to"
          type="time"
          name="config.quietHours.to"
          value={draft.quietTo}
          onValue={(quietTo) => set({ quietTo })}
          error={error}
        />
      </div>
      <Select
        label="Over the project's frequency cap (MARKETING templates)"
        name="config.onCap"
        value={draft.onCap}
        options={[
          { value: 'wait', label: 'Wait until the cap allows the email' },
          { value: 'skip', label: 'Skip the email and go on' },
        ]}
        onValue={(onCap) => set({ onCap })}
        error={error}
      />
    </>
  );
}

/**
 * The filter tree of a CONDITION, in the filter builder, with what GET /workflows/fields lists: contact fields,
 * events, and the execution context's keys (event data), which value operators read.
 */
function ConditionFields({ draft, set }: Omit<Props, 'type' | 'error'>) {
  const catalog = useLoad(workflowCatalog, []);
  if (!catalog.data) return catalog.error ? <ErrorNote error={catalog.error} /> : <Loading />;
  return (
    <fieldset class="condition">
      <legend>Condition</legend>
      <TreeEditor tree={draft.condition} catalog={catalog.data} onChange={(condition) => set({ condition })} />
    </fieldset>
  );
}

function ContactUpdates({ draft, set, error }: Omit<Props, 'type'>) {
  const rows = draft.updates.length > 0 ? draft.updates : [{ key: '', value: '' }];
  const change = (i: number, patch: Partial<{ key: string; value: string }>) =>
    set({ updates: rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <>
      <fieldset class="updates">
        <legend>Fields to set</legend>
        {rows.map((row, i) => (
          <div class="form inline" key={i}>
            <TextInput
              label={`Field ${i + 1}`}
              name={`config.data.${row.key}`}
              value={row.key}
              onValue={(key) => change(i, { key })}
              error={error}
            />
            <TextInput label={`Value ${i + 1}`} value={row.value} onValue={(value) => change(i, { value })} />
          </div>
        ))}
        <button type="button" onClick={() => set({ updates: [...rows, { key: '', value: '' }] })}>
          Add a field
        </button>
      </fieldset>
      <Select
        label="Subscription"
        name="config.subscribed"
        value={draft.subscribed}
        options={[
          { value: '', label: 'Leave as it is' },
          { value: 'true', label: 'Subscribe' },
          { value: 'false', label: 'Unsubscribe' },
        ]}
        onValue={(subscribed) => set({ subscribed })}
        error={error}
      />
    </>
  );
}

/** A RANDOM_SPLIT's 2 to 5 branches: each one's weight (its share of the sum) and what it tests. */
function SplitBranches({ draft, set, error }: Omit<Props, 'type'>) {
  const rows = draft.splits;
  const change = (i: number, patch: Partial<{ weight: string; label: string }>) =>
    set({ splits: rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const name = (i: number) => String.fromCharCode(65 + i);
  return (
    <fieldset class="splits">
      <legend>Branches (each contact always takes the same one)</legend>
      {rows.map((row, i) => (
        <div class="form inline" key={i}>
          <TextInput
            label={`Weight of ${name(i)}`}
            type="number"
            min={1}
            name={`config.branches.${i}.weight`}
            value={row.weight}
            onValue={(weight) => change(i, { weight })}
            error={error}
          />
          <TextInput
            label={`What ${name(i)} tests`}
            name={`config.branches.${i}.label`}
            value={row.label}
            onValue={(label) => change(i, { label })}
            error={error}
          />
        </div>
      ))}
      {rows.length < 5 ? (
        <button type="button" onClick={() => set({ splits: [...rows, { weight: '50', label: '' }] })}>
          Add a branch
        </button>
      ) : null}
      {rows.length > 2 ? (
        <button type="button" onClick={() => set({ splits: rows.slice(0, -1) })}>
          Remove branch {name(rows.length - 1)}
        </button>
      ) : null}
    </fieldset>
  );
}

/** The settings of one step type, as inputs named by the API's field names so a refusal shows beside its input. */
export function StepFields({ type, draft, set, error }: Props) {
  switch (type) {
    case 'SEND_EMAIL':
      return <TemplatePicker draft={draft} set={set} error={error} />;
    case 'DELAY':
      return (
        <div class="form inline">
          <TextInput
            label="Wait for"
            type="number"
            min={1}
            name="config.amount"
            value={draft.amount}
            onValue={(amount) => set({ amount })}
            error={error}
          />
          <Select label="Unit" name="config.unit" value={draft.unit} options={UNITS} onValue={(unit) => set({ unit })} error={error} />
          <TextInput
            label="Then until (local time)"
            type="time"
            name="config.until"
            hint="The next such time in the contact's data.timezone, else the project's time zone. Empty: no local time."
            value={draft.until}
            onValue={(until) => set({ until })}
            error={error}
          />
        </div>
      );
    case 'WAIT_FOR_EVENT':
      return (
        <>
          <TextInput
            label="Event name"
            name="config.eventName"
            value={draft.eventName}
            onValue={(eventName) => set({ eventName })}
            error={error}
          />
          <div class="form inline">
            <TextInput
              label="Timeout"
              type="number"
              min={1}
              name="config.timeout"
              hint="Empty: wait for as long as it takes"
              value={draft.timeoutAmount}
              onValue={(timeoutAmount) => set({ timeoutAmount })}
              error={error}
            />
            <Select label="Timeout unit" value={draft.timeoutUnit} options={UNITS} onValue={(timeoutUnit) => set({ timeoutUnit })} />
          </div>
        </>
      );
    case 'CONDITION':
      return <ConditionFields draft={draft} set={set} />;
    case 'WEBHOOK':
      return (
        <>
          <TextInput label="URL" type="url" name="config.url" value={draft.url} onValue={(url) => set({ url })} error={error} />
          <Select
            label="Method"
            name="config.method"
            value={draft.method}
            options={(['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const).map((m) => ({ value: m, label: m }))}
            onValue={(method) => set({ method })}
            error={error}
          />
        </>
      );
    case 'UPDATE_CONTACT':
      return <ContactUpdates draft={draft} set={set} error={error} />;
    case 'RANDOM_SPLIT':
      return <SplitBranches draft={draft} set={set} error={error} />;
    case 'EXIT':
      return <TextInput label="Reason" name="config.reason" value={draft.reason} onValue={(reason) => set({ reason })} error={error} />;
  }
}
