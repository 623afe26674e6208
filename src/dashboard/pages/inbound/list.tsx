import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { useProject } from '../../session';
import { Badge, Empty, WhenLoaded } from '../../ui/feedback';
import { TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { CursorPager, Table, useCursorTrail } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useDebounced } from '../../ui/use-debounced';
import { useLoad } from '../../ui/use-load';

type Inbound = Answer<'/inbound', 'get'>['data'][number];

/** The message's SPF, DKIM and DMARC in one badge: good when all pass, bad when one fails. */
export function AuthBadge({ auth }: { auth: Inbound['auth'] }) {
  const results = [auth.spf, auth.dkim, auth.dmarc];
  const tone = results.every((r) => r === 'pass') ? 'good' : results.some((r) => r === 'fail') ? 'bad' : 'neutral';
  return <Badge tone={tone}>{`SPF ${auth.spf} · DKIM ${auth.dkim} · DMARC ${auth.dmarc}`}</Badge>;
}

/** Mail received at the project's domains with inbound on (docs/smtp.md), newest first, searched by the API. */
export function InboundList() {
  const project = useProject();
  const [search, setSearch] = useState('');
  const { trail, setTrail, cursor, restart } = useCursorTrail();
  const term = useDebounced(search.trim());
  const page = useLoad(
    () => call(api.GET('/inbound', { params: { query: { search: term || undefined, cursor } } })),
    [project.id, term, cursor],
  );
  return (
    <>
      <PageHeader title="Inbound" />
      <div class="toolbar" role="search">
        <TextInput label="Search by sender or subject" type="search" value={search} onValue={restart(setSearch)} />
      </div>
      {page.data && !cursor ? (
        <p class="muted" role="status">
          {page.data.total.toLocaleString()} message{page.data.total === 1 ? '' : 's'}
          {term ? ` matching “${term}”` : ''}
        </p>
      ) : null}
      <WhenLoaded loaded={page}>
        {({ data: rows, hasMore, cursor: next }) =>
          rows.length === 0 ? (
            <Empty>
              {term
                ? 'No message matches.'
                : 'No mail received yet: turn inbound mail on for a domain (Domains) and publish its MX record.'}
            </Empty>
          ) : (
            <>
              <Table<Inbound>
                caption="Inbound mail, newest first"
                rowKey={(m) => m.id}
                rows={rows}
                columns={[
                  { title: 'Subject', cell: (m) => <a href={href(`/inbound/${m.id}`)}>{m.subject || '(no subject)'}</a> },
                  { title: 'From', cell: (m) => <span class="break-anywhere">{m.from.email}</span> },
                  { title: 'To', cell: (m) => <span class="break-anywhere">{m.to.map((a) => a.email).join(', ')}</span>, wide: true },
                  {
                    title: 'Reply to',
                    cell: (m) => (m.inReplyToEmail ? <a href={href(`/emails/${m.inReplyToEmail.id}`)}>Our email</a> : '—'),
                  },
                  { title: 'Checks', cell: (m) => <AuthBadge auth={m.auth} />, wide: true },
                  { title: 'Received', cell: (m) => dateTime(m.receivedAt) },
                ]}
              />
              <CursorPager trail={trail} next={hasMore ? next : null} onMove={setTrail} />
            </>
          )
        }
      </WhenLoaded>
    </>
  );
}
