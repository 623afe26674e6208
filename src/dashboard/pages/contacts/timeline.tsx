import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Empty, ErrorNote, Loading } from '../../ui/feedback';
import { CursorPager, dateTime } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

const PAGE = 20;

/** The contact's events, newest first, a page at a time (`GET /events/contact/{contactId}`). */
export function Timeline({ contactId }: { contactId: string }) {
  const [trail, setTrail] = useState<string[]>([]);
  const cursor = trail[trail.length - 1];
  const events = useLoad(
    async () => ({
      ...(await call(api.GET('/events/contact/{contactId}', { params: { path: { contactId }, query: { limit: PAGE, cursor } } }))),
      // The pager numbers the page shown, not the one still loading.
      trail,
    }),
    [contactId, cursor],
  );
  if (events.error) return <ErrorNote error={events.error} />;
  if (!events.data) return <Loading what="Loading events" />;
  const { data, hasMore, cursor: next, trail: shown } = events.data;
  return (
    <>
      {data.length === 0 ? (
        <Empty>No events yet.</Empty>
      ) : (
        <ol class="timeline">
          {data.map((e) => (
            <li key={e.id}>
              <strong>{e.name}</strong> <time dateTime={e.createdAt}>{dateTime(e.createdAt)}</time>
              {Object.keys(e.data).length > 0 ? <pre>{JSON.stringify(e.data, null, 2)}</pre> : null}
            </li>
          ))}
        </ol>
      )}
      {shown.length > 0 || hasMore ? <CursorPager trail={shown} next={hasMore ? next : null} onMove={setTrail} /> : null}
    </>
  );
}
