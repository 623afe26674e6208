import { api, call } from '../../api/client';
import { href } from '../../router';
import { useProject } from '../../session';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { Tags } from '../../ui/tags';
import { useAction, useLoad } from '../../ui/use-load';

const LIMIT = 5;

/**
 * What happens next: scheduled emails (each can be cancelled here), scheduled campaigns and automation runs
 * under way (`GET /activity/upcoming`); nothing when there is none.
 */
export function Upcoming() {
  const project = useProject();
  const next = useLoad(() => call(api.GET('/activity/upcoming', { params: { query: { limit: LIMIT } } })), [project.id]);
  const cancel = useAction(async (id: string) => {
    await call(api.POST('/v1/emails/{id}/cancel', { params: { path: { id } } }));
    await next.reload();
  });
  const d = next.data;
  if (next.error) return <ErrorNote error={next.error} />;
  if (!d || d.totals.campaigns + d.totals.executions + d.totals.emails === 0) return null;
  const more = (shown: number, total: number) => (total > shown ? <p class="muted">and {(total - shown).toLocaleString()} more</p> : null);
  return (
    <Section title="Coming up">
      {d.emails.length > 0 ? (
        <>
          <Table
            caption="Scheduled emails, soonest first"
            rowKey={(e) => e.id}
            rows={d.emails}
            columns={[
              { title: 'Email', cell: (e) => <a href={href(`/emails/${e.id}`)}>{e.subject || '(no subject)'}</a> },
              { title: 'To', cell: (e) => <span class="break-anywhere">{e.to}</span> },
              { title: 'Sends', cell: (e) => dateTime(e.scheduledAt) },
              { title: 'Tags', cell: (e) => <Tags tags={e.tags} />, wide: true },
              {
                title: 'Cancel',
                cell: (e) => (
                  <ConfirmButton
                    label="Cancel"
                    confirm={`Cancel the email to ${e.to}?`}
                    danger
                    onConfirm={() => cancel.run(e.id)}
                    disabled={cancel.pending}
                  />
                ),
              },
            ]}
          />
          {more(d.emails.length, d.totals.emails)}
          <ErrorNote error={cancel.error} />
        </>
      ) : null}
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
