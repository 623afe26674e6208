import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { can, useProject } from '../../session';
import { ErrorNote, Loading, Progress } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { SimulatedNote } from './simulated-note';
import { BillingProvider } from './billing-provider';
import './insights.css';

type Limits = Answer<'/users/@me/projects/{id}/billing-limits', 'get'>['limits'];
type Category = keyof Limits;

const CATEGORIES: Array<{ key: Category; label: string }> = [
  { key: 'TRANSACTIONAL', label: 'Transactional' },
  { key: 'CAMPAIGN', label: 'Campaigns' },
  { key: 'WORKFLOW', label: 'Automations' },
  { key: 'INBOUND', label: 'Inbound' },
];

const capText = (cap: number | null) => (cap === null ? 'Unlimited' : cap.toLocaleString());

/** Each category's cap as a form field: empty is unlimited, as `null` is for the API. */
function LimitsForm({ limits, onSaved }: { limits: Limits; onSaved: (limits: Limits) => void }) {
  const project = useProject();
  const [draft, setDraft] = useState(
    () =>
      Object.fromEntries(CATEGORIES.map(({ key }) => [key, limits[key] === null ? '' : String(limits[key])])) as Record<Category, string>,
  );
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = Object.fromEntries(CATEGORIES.map(({ key }) => [key, draft[key].trim() === '' ? null : Number(draft[key])])) as Limits;
    const answer = await call(
      api.PUT('/users/@me/projects/{id}/billing-limits', { params: { path: { id: project.id } }, body: { limits: body } }),
    );
    onSaved(answer.limits);
    setSaved(true);
  });
  return (
    <Form onSubmit={() => void save.run()}>
      <div class="limits-fields">
        {CATEGORIES.map(({ key, label }) => (
          <TextInput
            key={key}
            label={`${label} emails per month`}
            name={`limits.${key}`}
            type="number"
            min={0}
            hint="Empty for no cap; 0 blocks these emails."
            value={draft[key]}
            onValue={(value) => setDraft({ ...draft, [key]: value })}
            error={save.error}
          />
        ))}
      </div>
      <ErrorNote error={save.error} />
      {saved ? <p role="status">Limits saved.</p> : null}
      <Submit pending={save.pending} busy="Saving…">
        Save limits
      </Submit>
    </Form>
  );
}

/** This month's emails per category against the caps, the caps themselves, and the provider's pages when there is one. */
export function Billing() {
  const project = useProject();
  const path = { id: project.id };
  const usage = useLoad(() => call(api.GET('/users/@me/projects/{id}/billing-consumption', { params: { path } })), [project.id]);
  const limits = useLoad(() => call(api.GET('/users/@me/projects/{id}/billing-limits', { params: { path } })), [project.id]);
  const config = useLoad(() => call(api.GET('/config')), []);
  const u = usage.data;
  return (
    <>
      <PageHeader
        title="Billing"
        subtitle={
          config.data?.billingEnabled
            ? 'This month’s use against the project’s caps, and the billing provider of this deployment.'
            : 'This month’s use against the caps you set: this deployment connects no billing provider, so nothing is charged; a cap stops sending once it is reached.'
        }
      />
      <SimulatedNote what="this month’s use" alsoOutOf="the security figures and of analytics" />
      <ErrorNote error={usage.error ?? limits.error ?? config.error} />
      <Section title="This month">
        {!u ? (
          <Loading />
        ) : (
          <>
            <p class="muted">
              {u.total.toLocaleString()} emails from {dateTime(u.period.start)} to {dateTime(u.period.end)} (UTC month). Failed emails do
              not count.
            </p>
            <div class="usage">
              {CATEGORIES.map(({ key, label }) => {
                const c = u.categories[key];
                return c.limit === null ? (
                  <p key={key}>
                    <strong>{label}</strong>: {c.used.toLocaleString()} sent, no cap
                  </p>
                ) : (
                  <Progress key={key} label={label} value={c.used} max={c.limit} />
                );
              })}
            </div>
          </>
        )}
      </Section>
      <Section title="Monthly limits">
        {!limits.data ? (
          <Loading />
        ) : can.manage(project.role) ? (
          <LimitsForm
            limits={limits.data.limits}
            onSaved={() => {
              void limits.reload();
              void usage.reload();
            }}
          />
        ) : (
          <>
            <Table
              caption="Monthly limits per kind of email"
              rowKey={(c) => c.key}
              rows={CATEGORIES}
              columns={[
                { title: 'Emails', cell: (c) => c.label },
                { title: 'Limit per month', cell: (c) => capText(limits.data!.limits[c.key]) },
              ]}
            />
            <p class="muted">Only owners and admins change the limits.</p>
          </>
        )}
      </Section>
      {config.data?.billingEnabled ? <BillingProvider /> : null}
    </>
  );
}
