import { api, call } from '../../api/client';
import { href } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { PageHeader } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import type { Segment } from './types';

/** Every segment of the project (the API answers them all at once, newest first) with its cached count. */
export function SegmentList() {
  const list = useLoad(() => call(api.GET('/segments')), []);
  const remove = useAction(async (s: Segment) => {
    await call(api.DELETE('/segments/{id}', { params: { path: { id: s.id } } }));
    await list.reload();
  });
  return (
    <>
      <PageHeader title="Segments">
        <a class="button primary" href={href('/segments/new')}>
          New segment
        </a>
      </PageHeader>
      <ErrorNote error={remove.error} />
      <WhenLoaded loaded={list}>
        {(segments) => (
          <Table
            caption="Segments"
            rowKey={(s) => s.id}
            rows={segments}
            empty="No segments yet. A segment picks contacts by their fields, events and activity, for campaigns and automations."
            columns={[
              { title: 'Name', cell: (s) => <a href={href(`/segments/${s.id}`)}>{s.name}</a> },
              {
                title: 'Kind',
                cell: (s) => (
                  <>
                    <Badge>{s.type === 'DYNAMIC' ? 'Dynamic' : 'Static'}</Badge>{' '}
                    {s.trackMembership ? <Badge tone="good">tracked</Badge> : null}
                  </>
                ),
              },
              { title: 'Members', cell: (s) => s.memberCount.toLocaleString() },
              { title: 'Description', cell: (s) => s.description ?? '', wide: true },
              { title: 'Updated', cell: (s) => dateTime(s.updatedAt), wide: true },
              {
                title: 'Actions',
                cell: (s) => (
                  <ConfirmButton
                    label="Delete"
                    confirm={`Delete ${s.name}?`}
                    danger
                    disabled={remove.pending}
                    onConfirm={() => remove.run(s)}
                  />
                ),
              },
            ]}
          />
        )}
      </WhenLoaded>
    </>
  );
}
