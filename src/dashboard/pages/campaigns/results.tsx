import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { Badge, Empty, ErrorNote, Loading } from '../../ui/feedback';
import { count, dateTime } from '../../ui/format';
import { Select } from '../../ui/form';
import { Section } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

type Recipient = Answer<'/campaigns/{id}/recipients', 'get'>['data'][number];
type Status = Recipient['status'];

const TONES: Record<Status, 'neutral' | 'good' | 'bad' | 'warn' | 'info'> = {
  PENDING: 'neutral',
  SENT: 'info',
  DELIVERED: 'good',
  OPENED: 'good',
  CLICKED: 'good',
  BOUNCED: 'bad',
  COMPLAINED: 'bad',
  FAILED: 'bad',
  SUPPRESSED: 'warn',
  SCHEDULED: 'neutral',
  CANCELLED: 'neutral',
};
const STATUSES = Object.keys(TONES) as Status[];
const word = (s: Status) => s.charAt(0) + s.slice(1).toLowerCase();

/** The latest thing that happened to the recipient's email, and when. */
function lastMoment(r: Recipient): string {
  const moments: Array<[string, string | null]> = [
    ['Failed', r.failedAt],
    ['Complained', r.complainedAt],
    ['Bounced', r.bouncedAt],
    ['Clicked', r.clickedAt],
    ['Opened', r.openedAt],
    ['Delivered', r.deliveredAt],
    ['Sent', r.sentAt],
  ];
  const found = moments.find(([, at]) => at);
  return found ? `${found[0]} ${dateTime(found[1])}` : 'Queued';
}

/** Every recipient of the campaign with what became of its email (`GET /campaigns/{id}/recipients`), 20 at a time. */
export function Recipients({ campaignId, version }: { campaignId: string; version: string }) {
  const [status, setStatus] = useState<Status | ''>('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    () =>
      call(
        api.GET('/campaigns/{id}/recipients', {
          params: { path: { id: campaignId }, query: { page, pageSize: 20, status: status || undefined } },
        }),
      ),
    [campaignId, page, status, version],
  );
  return (
    <Section title="Recipients">
      <div class="toolbar">
        <Select<Status | ''>
          label="Status"
          value={status}
          options={[{ value: '', label: 'Every status' }, ...STATUSES.map((s) => ({ value: s, label: word(s) }))]}
          onValue={(s) => {
            setStatus(s);
            setPage(1);
          }}
        />
      </div>
      <ErrorNote error={list.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading what="Loading recipients" />
        )
      ) : list.data.total === 0 ? (
        <Empty>{status ? 'No recipient has this status.' : 'No email was made for this campaign.'}</Empty>
      ) : (
        <>
          <Table<Recipient>
            caption="Recipients"
            rowKey={(r) => r.emailId}
            rows={list.data.data}
            columns={[
              { title: 'Recipient', cell: (r) => (r.contactId ? <a href={href(`/contacts/${r.contactId}`)}>{r.to}</a> : r.to) },
              { title: 'Status', cell: (r) => <Badge tone={TONES[r.status]}>{word(r.status)}</Badge> },
              { title: 'Last', cell: (r) => lastMoment(r), wide: true },
              { title: 'Error', cell: (r) => r.error ?? '', wide: true },
            ]}
          />
          <OffsetPager page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />
        </>
      )}
    </Section>
  );
}

/** The links recipients followed (`GET /campaigns/{id}/links`), most clicked first. */
export function ClickedLinks({ campaignId, version }: { campaignId: string; version: string }) {
  const links = useLoad(() => call(api.GET('/campaigns/{id}/links', { params: { path: { id: campaignId } } })), [campaignId, version]);
  return (
    <Section title="Clicked links">
      <ErrorNote error={links.error} />
      {!links.data ? (
        links.error ? null : (
          <Loading what="Loading links" />
        )
      ) : links.data.links.length === 0 ? (
        <Empty>No link clicked yet.</Empty>
      ) : (
        <Table
          caption="Clicked links"
          rowKey={(l) => l.url}
          rows={links.data.links}
          columns={[
            {
              title: 'Link',
              cell: (l) => (
                <a class="break-anywhere" href={l.url} target="_blank" rel="noreferrer">
                  {l.url}
                </a>
              ),
            },
            { title: 'Clicks', cell: (l) => count(l.clicks) },
            { title: 'Recipients', cell: (l) => count(l.recipients) },
          ]}
        />
      )}
    </Section>
  );
}
