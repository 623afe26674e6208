import { api, call } from '../../api/client';
import { WhenLoaded } from '../../ui/feedback';
import { count } from '../../ui/format';
import { Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

/** The links recipients followed (`GET /campaigns/{id}/links`), most clicked first. */
export function ClickedLinks({ campaignId, version }: { campaignId: string; version: string }) {
  const links = useLoad(() => call(api.GET('/campaigns/{id}/links', { params: { path: { id: campaignId } } })), [campaignId, version]);
  return (
    <Section title="Clicked links">
      <WhenLoaded loaded={links} what="Loading links">
        {(data) => (
          <Table
            caption="Clicked links"
            rowKey={(l) => l.url}
            rows={data.links}
            empty="No link clicked yet."
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
      </WhenLoaded>
    </Section>
  );
}
