import { api, call } from '../../api/client';
import { useProject } from '../../session';
import { Badge, ErrorNote } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';

const LIMIT = 5;

/** What happens next: scheduled campaigns and automation runs under way (`GET /activity/upcoming`); nothing when there is none. */
export function Upcoming() {
  const project = useProject();
  const next = useLoad(() => call(api.GET('/activity/upcoming', { params: { query: { limit: LIMIT } } })), [project.id]);
  const d = next.data;
  if (next.error) return <ErrorNote error={next.error} />;
  if (!d || d.totals.campaigns + d.totals.executions === 0) return null;
  const more = (shown: number, total: number) => (total > shown ? <p class="muted">and {(total - shown).toLocaleString()} more</p> : null);
  return (
    <Section title="Coming up">
      {d.campaigns.length > 0 ? (
        <>
          <Table
            caption="Scheduled campaigns, soonest first"
            rowKey={(c) => c.id}
            rows={d.campaigns}
            columns={[
              { title: 'Campaign', cell: (c) => c.name },
              { title: 'Sends', cell: (c) => dateTime(c.scheduledFor) },
              { title: 'Recipients', cell: (c) => c.totalRecipients.toLocaleString(), wide: true },
            ]}
          />
          {more(d.campaigns.length, d.totals.campaigns)}
        </>
      ) : null}
      {d.executions.length > 0 ? (
        <>
          <Table
            caption="Automations under way: running first, then waiting by when they resume"
            rowKey={(x) => x.id}
            rows={d.executions}
            columns={[
              { title: 'Automation', cell: (x) => x.workflow.name },
              { title: 'Contact', cell: (x) => <span class="break-anywhere">{x.contact?.email ?? '—'}</span> },
              {
                title: 'State',
                cell: (x) => (
                  <>
                    <Badge tone={x.status === 'RUNNING' ? 'good' : 'neutral'}>{x.status === 'RUNNING' ? 'running' : 'waiting'}</Badge>{' '}
                    {x.waitingFor ? (
                      <>
                        for <code>{x.waitingFor}</code>
                      </>
                    ) : (
                      (x.step?.name ?? x.step?.type ?? '')
                    )}
                  </>
                ),
              },
              { title: 'Resumes', cell: (x) => dateTime(x.resumesAt), wide: true },
            ]}
          />
          {more(d.executions.length, d.totals.executions)}
        </>
      ) : null}
    </Section>
  );
}
