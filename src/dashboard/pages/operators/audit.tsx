import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { Badge, Empty, ErrorNote, Loading } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { CursorPager, Table, useCursorTrail } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { bearer } from './access';

type Entry = Answer<'/admin/audit', 'get'>['data'][number];

/** Every suspension and reinstatement of the deployment, automatic or by an operator, newest first. */
export function OperatorAudit({ token, version }: { token: string; version: number }) {
  const { trail, setTrail, cursor } = useCursorTrail();
  const page = useLoad(
    () => call(api.GET('/admin/audit', { params: { query: { cursor, limit: 20 } }, headers: bearer(token) })),
    [token, cursor, version],
  );
  const rows = page.data?.data ?? [];
  return (
    <Section title="Audit">
      <ErrorNote error={page.error} />
      {!page.data ? (
        page.error ? null : (
          <Loading />
        )
      ) : rows.length === 0 ? (
        <Empty>No project has been suspended yet.</Empty>
      ) : (
        <>
          <Table<Entry>
            caption="Suspensions and reinstatements, newest first"
            rowKey={(e) => e.id}
            rows={rows}
            columns={[
              { title: 'When', cell: (e) => dateTime(e.at) },
              {
                title: 'Action',
                cell: (e) => (e.action === 'suspend' ? <Badge tone="bad">Suspended</Badge> : <Badge tone="good">Reinstated</Badge>),
              },
              { title: 'Project', cell: (e) => <code class="operators-id">{e.projectId}</code> },
              { title: 'Reason', cell: (e) => <span class="operators-reason">{e.reason ?? '—'}</span> },
              { title: 'By', cell: (e) => (e.by === 'automatic' ? 'Automatic' : 'Operator') },
            ]}
          />
          <CursorPager trail={trail} next={page.data.hasMore ? page.data.cursor : null} onMove={setTrail} />
        </>
      )}
    </Section>
  );
}
