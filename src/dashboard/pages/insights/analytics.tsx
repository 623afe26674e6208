import { api, call } from '../../api/client';
import { navigate } from '../../router';
import { useProject } from '../../session';
import { Empty, ErrorNote, Loading } from '../../ui/feedback';
import { Select } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { percentOf100 } from '../../ui/format';
import { TimeChart, type Series } from '../../ui/time-chart';
import { useLoad } from '../../ui/use-load';
import { PERIODS, fromOf, periodOf, type PeriodName } from './period';
import { SimulatedNote } from './simulated-note';
import './insights.css';

type Stage = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained';

const ENGAGEMENT: Array<Series<Stage>> = [
  { key: 'sent', label: 'Sent', color: '#1d4ed8' },
  { key: 'delivered', label: 'Delivered', color: '#067647', dashed: true },
  { key: 'opened', label: 'Opened', color: '#8a4b00' },
  { key: 'clicked', label: 'Clicked', color: '#6d28d9', dashed: true },
];
const CONTACTS: Array<Series<'total' | 'created'>> = [
  { key: 'total', label: 'Contacts', color: '#1d4ed8', legend: 'last' },
  { key: 'created', label: 'New', color: '#067647', dashed: true },
];
const PROBLEMS: Array<Series<Stage>> = [
  { key: 'bounced', label: 'Bounced', color: '#b42318' },
  { key: 'complained', label: 'Complaints', color: '#4a5263', dashed: true },
];

function Totals({ totals }: { totals: Record<Stage, number> }) {
  const of = (n: number) => (totals.sent === 0 ? 0 : (100 * n) / totals.sent);
  const figures: Array<[string, number, string | null]> = [
    ['Sent', totals.sent, null],
    ['Delivered', totals.delivered, percentOf100(of(totals.delivered))],
    ['Opened', totals.opened, percentOf100(of(totals.opened))],
    ['Clicked', totals.clicked, percentOf100(of(totals.clicked))],
    ['Bounced', totals.bounced, percentOf100(of(totals.bounced))],
    ['Complaints', totals.complained, percentOf100(of(totals.complained))],
  ];
  return (
    <dl class="stats">
      {figures.map(([name, count, share]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            {count.toLocaleString()}
            {share ? <small class="muted"> {share} of sent</small> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Emails over time, the best campaigns and the most tracked events, for a period chosen at the top. */
export function Analytics({ query }: { query: URLSearchParams }) {
  const project = useProject();
  const period = periodOf(query.get('period'));
  const load = useLoad(async () => {
    const range = { from: fromOf(period) };
    const [series, contacts, campaigns, events] = await Promise.all([
      call(api.GET('/analytics/timeseries', { params: { query: { ...range, interval: period.interval } } })),
      call(api.GET('/analytics/contacts', { params: { query: { ...range, interval: period.interval } } })),
      call(api.GET('/analytics/top-campaigns', { params: { query: { ...range, limit: 5 } } })),
      call(api.GET('/analytics/top-events', { params: { query: { ...range, limit: 10 } } })),
    ]);
    return { series, contacts, campaigns, events };
  }, [project.id, period.value]);
  const d = load.data;
  const hourly = period.interval === 'hour';
  return (
    <>
      <PageHeader title="Analytics">
        <Select<PeriodName>
          label="Period"
          value={period.value}
          options={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
          onValue={(value) => navigate('/analytics', { period: value })}
        />
      </PageHeader>
      <SimulatedNote what="these figures" alsoOutOf="the security figures and of billing" />
      <ErrorNote error={load.error} />
      {!d ? (
        <Loading />
      ) : (
        <div aria-busy={load.loading}>
          <Section title="Emails">
            <Totals totals={d.series.totals} />
            <TimeChart title={`Emails per ${hourly ? 'hour' : 'day'}`} points={d.series.points} series={ENGAGEMENT} hourly={hourly} />
          </Section>
          <Section title="Bounces and complaints">
            <TimeChart
              title={`Bounces and complaints per ${hourly ? 'hour' : 'day'}`}
              points={d.series.points}
              series={PROBLEMS}
              hourly={hourly}
            />
          </Section>
          <Section title="Contacts">
            <TimeChart title={`Contacts per ${hourly ? 'hour' : 'day'}`} points={d.contacts.points} series={CONTACTS} hourly={hourly} />
          </Section>
          <div class="grid">
            <Section title="Top campaigns">
              {d.campaigns.campaigns.length === 0 ? (
                <Empty>No campaign sent in this period.</Empty>
              ) : (
                <Table
                  caption="Campaigns with the most emails sent in the period"
                  rowKey={(c) => c.id}
                  rows={d.campaigns.campaigns}
                  columns={[
                    { title: 'Campaign', cell: (c) => c.name },
                    { title: 'Sent', cell: (c) => c.sent.toLocaleString() },
                    { title: 'Opened', cell: (c) => percentOf100(c.openRate) },
                    { title: 'Clicked', cell: (c) => percentOf100(c.clickRate), wide: true },
                  ]}
                />
              )}
            </Section>
            <Section title="Top events">
              {d.events.events.length === 0 ? (
                <Empty>No event tracked in this period.</Empty>
              ) : (
                <Table
                  caption="Events tracked most often in the period"
                  rowKey={(e) => e.name}
                  rows={d.events.events}
                  columns={[
                    { title: 'Event', cell: (e) => <code>{e.name}</code> },
                    { title: 'Times', cell: (e) => e.count.toLocaleString() },
                  ]}
                />
              )}
            </Section>
          </div>
        </div>
      )}
    </>
  );
}
