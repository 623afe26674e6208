import { api, call } from '../../api/client';
import { Empty, ErrorNote, Loading } from '../../ui/feedback';
import { count } from '../../ui/format';
import { Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

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
