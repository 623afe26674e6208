import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { Empty, WhenLoaded } from '../../ui/feedback';
import { Section } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useLoad } from '../../ui/use-load';

const PAGE_SIZE = 20;

/** The segment's contacts a page at a time: live matches of a DYNAMIC segment, the members of a STATIC one. */
export function SegmentMembers({ id, version }: { id: string; version: string }) {
  const [page, setPage] = useState(1);
  const members = useLoad(
    () => call(api.GET('/segments/{id}/contacts', { params: { path: { id }, query: { page, pageSize: PAGE_SIZE } } })),
    [id, page, version],
  );
  return (
    <Section title="Members">
      <WhenLoaded loaded={members}>
        {(data) =>
          data.total === 0 ? (
            <Empty>No contact is in this segment.</Empty>
          ) : (
            <>
              <p class="muted">
                {data.total.toLocaleString()} {data.total === 1 ? 'contact' : 'contacts'}
              </p>
              <Table
                caption="Members of the segment"
                rowKey={(c) => c.id}
                rows={data.data}
                columns={[
                  { title: 'Email', cell: (c) => <a href={href(`/contacts/${c.id}`)}>{c.email}</a> },
                  { title: 'Subscribed', cell: (c) => (c.subscribed ? 'Yes' : 'No') },
                  { title: 'Added', cell: (c) => dateTime(c.createdAt), wide: true },
                ]}
              />
              <OffsetPager page={data.page} totalPages={Math.ceil(data.total / data.pageSize)} onPage={setPage} />
            </>
          )
        }
      </WhenLoaded>
    </Section>
  );
}
