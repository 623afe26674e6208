import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { Empty, WhenLoaded } from '../../ui/feedback';
import { Select } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { LiquidText } from '../../ui/liquid';
import { CampaignStatusBadge, STATUSES, statusLabel, type CampaignStatus } from './status';

const PAGE_SIZE = 20;

/** The project's campaigns, a page at a time, filtered and searched by the API. */
export function Campaigns() {
  const [status, setStatus] = useState<CampaignStatus | ''>('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    () =>
      call(
        api.GET('/campaigns', {
          params: { query: { page, pageSize: PAGE_SIZE, status: status || undefined, search: search || undefined } },
        }),
      ),
    [page, status, search],
  );
  return (
    <>
      <PageHeader title="Campaigns">
        <a class="button primary" href={href('/campaigns/new')}>
          New campaign
        </a>
      </PageHeader>
      <div class="toolbar" role="search">
        <div class="field">
          <label for="campaign-search">Search</label>
          <input
            id="campaign-search"
            type="search"
            placeholder="Name, subject or sender"
            value={search}
            onInput={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
        </div>
        <Select<CampaignStatus | ''>
          label="Status"
          value={status}
          options={[{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]}
          onValue={(s) => {
            setStatus(s);
            setPage(1);
          }}
        />
      </div>
      <WhenLoaded loaded={list}>
        {(found) =>
          found.total === 0 ? (
            <Empty>{status || search ? 'No campaign matches.' : 'No campaign yet: compose your first one.'}</Empty>
          ) : (
            <>
              <Table
                caption="Campaigns"
                rowKey={(c) => c.id}
                rows={found.data}
                columns={[
                  { title: 'Name', cell: (c) => <a href={href(`/campaigns/${c.id}`)}>{c.name}</a> },
                  { title: 'Status', cell: (c) => <CampaignStatusBadge status={c.status} /> },
                  { title: 'Recipients', cell: (c) => c.totalRecipients.toLocaleString() },
                  { title: 'Sent', cell: (c) => c.sentCount.toLocaleString(), wide: true },
                  { title: 'Opened', cell: (c) => c.openedCount.toLocaleString(), wide: true },
                  { title: 'Subject', cell: (c) => <LiquidText text={c.subject} />, wide: true },
                  {
                    title: 'When',
                    cell: (c) =>
                      c.sentAt ? `Sent ${dateTime(c.sentAt)}` : c.scheduledFor ? `For ${dateTime(c.scheduledFor)}` : dateTime(c.createdAt),
                    wide: true,
                  },
                ]}
              />
              <OffsetPager page={found.page} totalPages={found.totalPages} onPage={setPage} />
            </>
          )
        }
      </WhenLoaded>
    </>
  );
}
