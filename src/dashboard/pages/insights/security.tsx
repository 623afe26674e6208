import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { useProject } from '../../session';
import { Badge, Empty, ErrorNote, Loading, Notice } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime, percentOf100 } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import './insights.css';

type Security = Answer<'/projects/{id}/security', 'get'>;
type Level = Security['levels']['bounce'];

const TONE: Record<Level, 'good' | 'warn' | 'bad'> = { healthy: 'good', warning: 'warn', critical: 'bad' };
const WORD: Record<Level, string> = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical' };

/** One rate against the thresholds mailbox providers act on, drawn as a bar with both marks. */
function RateCard({
  title,
  value,
  count,
  days,
  level,
  thresholds,
}: {
  title: string;
  value: number;
  count: number;
  days: number;
  level: Level;
  thresholds: { warning: number; critical: number };
}) {
  // The scale runs a little past the critical mark so both marks and an over-the-line rate stay visible.
  const scale = Math.max(thresholds.critical * 1.5, value);
  const at = (v: number) => `${Math.min(100, (v / scale) * 100)}%`;
  return (
    <Section title={title}>
      <p class="rate-figure">
        <strong>{percentOf100(value)}</strong> <Badge tone={TONE[level]}>{WORD[level]}</Badge>
      </p>
      <div class="rate-bar" aria-hidden="true">
        <div class={`rate-fill rate-${level}`} style={{ width: at(value) }} />
        <div class="rate-mark" style={{ left: at(thresholds.warning) }} />
        <div class="rate-mark critical" style={{ left: at(thresholds.critical) }} />
      </div>
      <p class="muted">
        {count.toLocaleString()} in {days} days. Warning at {thresholds.warning}%, critical at {thresholds.critical}%.
      </p>
    </Section>
  );
}

/**
 * Bounce and complaint rates over the reputation window against the thresholds the guardrails act on, what
 * they leave out, and when the project was suspended and by whom (docs/security.md).
 */
export function SecurityPage() {
  const project = useProject();
  const state = useLoad(() => call(api.GET('/projects/{id}/security', { params: { path: { id: project.id } } })), [project.id]);
  const s = state.data;
  return (
    <>
      <PageHeader title="Security" />
      <ErrorNote error={state.error} />
      {!s ? (
        <Loading />
      ) : (
        <>
          {s.disabled && s.heldEmails > 0 ? (
            <Notice tone="warn">{s.heldEmails.toLocaleString()} emails are held; they go once the project is reinstated, each once.</Notice>
          ) : null}
          <p class="muted">
            {s.sent.toLocaleString()} emails sent from {dateTime(s.window.from)} to {dateTime(s.window.to)} (the last {s.window.days} days).
            Nothing is judged before {s.minSent.toLocaleString()} were sent in that time; at the critical level the project is suspended
            automatically, at the warning level its owners are emailed.
          </p>
          <p class="muted simulated-note">
            {s.simulated.counted
              ? 'Mail to the simulator addresses counts in these figures (REPUTATION_COUNT_SIMULATED).'
              : `Mail to the simulator addresses is left out of these figures, of analytics and of billing${
                  s.simulated.leftOut > 0 ? `: ${s.simulated.leftOut.toLocaleString()} simulated emails in this time` : ''
                }.`}
          </p>
          <div class="grid rate-cards">
            <RateCard
              title="Bounce rate"
              value={s.bounceRate}
              count={s.bounced}
              days={s.window.days}
              level={s.levels.bounce}
              thresholds={s.thresholds.bounceRate}
            />
            <RateCard
              title="Complaint rate"
              value={s.complaintRate}
              count={s.complained}
              days={s.window.days}
              level={s.levels.complaint}
              thresholds={s.thresholds.complaintRate}
            />
          </div>
          <Section title="Suspensions">
            {s.suspensions.length === 0 ? (
              <Empty>This project has never been suspended.</Empty>
            ) : (
              <Table
                caption="Recent suspensions, newest first"
                rowKey={(p) => p.startedAt}
                rows={s.suspensions}
                columns={[
                  { title: 'From', cell: (p) => dateTime(p.startedAt) },
                  { title: 'Until', cell: (p) => (p.endedAt ? dateTime(p.endedAt) : <Badge tone="bad">ongoing</Badge>) },
                  { title: 'Reason', cell: (p) => p.reason ?? '—' },
                  { title: 'By', cell: (p) => (p.by === 'automatic' ? 'Automatic' : 'Operator') },
                ]}
              />
            )}
          </Section>
        </>
      )}
    </>
  );
}
