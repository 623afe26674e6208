import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, Empty, ErrorNote, Loading } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { triggerText } from './header';
import type { Workflow } from './types';
import './automations.css';

function CreateAutomation() {
  const [name, setName] = useState('');
  const [eventName, setEventName] = useState('');
  const [allowReentry, setAllowReentry] = useState(false);
  const create = useAction(async () => {
    const created = await call(api.POST('/workflows', { body: { name, eventName, allowReentry } }));
    navigate(`/automations/${created.id}`);
  });
  return (
    <Section title="New automation">
      <Form onSubmit={() => void create.run()} class="form inline">
        <TextInput label="Name" name="name" required value={name} onValue={setName} error={create.error} />
        <TextInput
          label="Trigger event"
          name="eventName"
          required
          hint="e.g. signup, or contact.subscribed"
          value={eventName}
          onValue={setEventName}
          error={create.error}
        />
        <label class="check">
          <input type="checkbox" checked={allowReentry} onChange={(e) => setAllowReentry(e.currentTarget.checked)} />
          Allow re-entry
        </label>
        <Submit pending={create.pending} busy="Creating…">
          Create automation
        </Submit>
      </Form>
      <ErrorNote error={create.error} />
    </Section>
  );
}

/** The project's automations, searched and paged by the API, with their state and trigger. */
export function Automations({ query }: { query: URLSearchParams }) {
  const page = Number(query.get('page') ?? '1') || 1;
  const search = query.get('search') ?? '';
  const enabled = (query.get('enabled') ?? '') as '' | 'true' | 'false';
  const go = (next: { page?: number; search?: string; enabled?: string }) =>
    navigate('/automations', { search, enabled, ...next, page: next.page && next.page > 1 ? String(next.page) : undefined });
  const list = useLoad(
    () =>
      call(
        api.GET('/workflows', { params: { query: { page, pageSize: 20, search: search || undefined, enabled: enabled || undefined } } }),
      ),
    [page, search, enabled],
  );
  const remove = useAction(async (w: Workflow) => {
    await call(api.DELETE('/workflows/{id}', { params: { path: { id: w.id } } }));
    await list.reload();
  });
  return (
    <>
      <PageHeader title="Automations" />
      <CreateAutomation />
      <div class="toolbar" role="search">
        <TextInput label="Search by name" type="search" value={search} onValue={(s) => go({ search: s })} />
        <Select
          label="State"
          value={enabled}
          options={[
            { value: '', label: 'All' },
            { value: 'true', label: 'Enabled' },
            { value: 'false', label: 'Disabled' },
          ]}
          onValue={(e) => go({ enabled: e })}
        />
      </div>
      <ErrorNote error={list.error ?? remove.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.total === 0 ? (
        <Empty>{search || enabled ? 'No automation matches.' : 'No automations yet: create one above.'}</Empty>
      ) : (
        <>
          <Table
            caption="Automations"
            rowKey={(w) => w.id}
            rows={list.data.data}
            columns={[
              { title: 'Name', cell: (w) => <a href={href(`/automations/${w.id}`)}>{w.name}</a> },
              { title: 'State', cell: (w) => <Badge tone={w.enabled ? 'good' : 'neutral'}>{w.enabled ? 'Enabled' : 'Disabled'}</Badge> },
              { title: 'Trigger', cell: (w) => triggerText(w) },
              { title: 'Created', cell: (w) => dateTime(w.createdAt), wide: true },
              {
                title: 'Actions',
                cell: (w) => (
                  <span class="actions">
                    <a href={href(`/automations/${w.id}/executions`)}>Executions</a>
                    <ConfirmButton label="Delete" confirm={`Delete ${w.name}?`} danger onConfirm={() => remove.run(w)} />
                  </span>
                ),
              },
            ]}
          />
          <OffsetPager page={list.data.page} totalPages={list.data.totalPages} onPage={(p) => go({ page: p })} />
        </>
      )}
    </>
  );
}
