import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Empty, ErrorNote, Loading } from '../../ui/feedback';
import { ago, dateTime } from '../../ui/format';
import { CursorPager } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

const PAGE = 20;

/** A value of an event's data as one line: text as it is, anything else as JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What kind of moment an event is, for its dot: mail that arrived, mail that failed, or the rest. */
function toneOf(name: string): 'good' | 'bad' | 'neutral' {
  if (/^email\.(delivery|open|click)$/.test(name) || name === 'contact.subscribed') return 'good';
  if (/^email\.(bounce|complaint|failed|suppressed)$/.test(name) || name === 'contact.unsubscribed') return 'bad';
  return 'neutral';
}

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
  const { data, hasMore, cursor: next, trail: seen } = events.data;
  return (
    <>
      {data.length === 0 ? (
        <Empty>No events yet.</Empty>
      ) : (
        <ol class="contact-timeline">
          {data.map((e) => (
            <li key={e.id} class={`contact-event contact-event-${toneOf(e.name)}`}>
              <div class="contact-event-head">
                <strong>{e.name}</strong>
                <time dateTime={e.createdAt} title={dateTime(e.createdAt)}>
                  {ago(e.createdAt)}
                </time>
              </div>
              {Object.keys(e.data).length > 0 ? (
                <dl class="contact-event-data">
                  {Object.entries(e.data).map(([key, value]) => (
                    <div key={key}>
                      <dt>{key}</dt>
                      <dd>{shown(value)}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {seen.length > 0 || hasMore ? <CursorPager trail={seen} next={hasMore ? next : null} onMove={setTrail} /> : null}
    </>
  );
}
