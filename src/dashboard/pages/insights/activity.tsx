import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { useProject } from '../../session';
import { Badge, Empty, ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Form, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { CursorPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { Tags, tagFilter } from '../../ui/tags';
import { useLoad } from '../../ui/use-load';
import { ACTIVITY_LABELS, ACTIVITY_TYPES, detailOf, toneOf, type ActivityType } from './activity-types';
import { Upcoming } from './upcoming';
import './insights.css';

const POLL_MS = 5_000;

function TypeFilter({ chosen, onChange }: { chosen: ActivityType[]; onChange: (types: ActivityType[]) => void }) {
  return (
    <fieldset class="type-filter">
      <legend>Show only {chosen.length === 0 ? <span class="muted">(nothing ticked: every type)</span> : null}</legend>
      {ACTIVITY_TYPES.map((type) => (
        <label key={type}>
          <input
            type="checkbox"
            checked={chosen.includes(type)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, type] : chosen.filter((t) => t !== type))}
          />{' '}
          {ACTIVITY_LABELS[type]}
        </label>
      ))}
    </fieldset>
  );
}

/** A tag typed in (`key:value`, as the emails were sent with); the API judges it, and its 400 shows above the list. */
function TagField({ tag, onTag }: { tag: string | undefined; onTag: (tag: string | undefined) => void }) {
  const [text, setText] = useState(tag ?? '');
  useEffect(() => setText(tag ?? ''), [tag]);
  return (
    <Form class="activity-tag-form" onSubmit={() => onTag(text.trim() || undefined)}>
      <TextInput label="Tag" name="tag" value={text} onValue={setText} placeholder="order:A-1042" />
      <button type="submit">Show tagged</button>
    </Form>
  );
}

/**
 * The project's email activity, newest first, paged on the server. While the first page is shown it follows
 * new activity: a cheap count since the last look runs every few seconds and the page reloads when it grows.
 * On later pages the count is announced instead, so the rows being read do not move.
 */
export function Activity({ query }: { query: URLSearchParams }) {
  const project = useProject();
  const types = (query.get('type')?.split(',') ?? []).filter((t): t is ActivityType => t in ACTIVITY_LABELS);
  const contactId = query.get('contact') ?? undefined;
  const contactEmail = query.get('email') ?? undefined;
  // `key:value`, as GET /activity takes it; a malformed one is the API's 400, shown above the list.
  const tag = query.get('tag') || undefined;
  const type = types.length > 0 ? types.join(',') : undefined;
  // The cursors belong to the filters they were read under: a filter changed by a link (a tag) starts at page one.
  const scope = [type, contactId, tag].join('\n');
  const [paged, setPaged] = useState<{ scope: string; trail: string[] }>({ scope, trail: [] });
  const trail = paged.scope === scope ? paged.trail : [];
  const setTrail = (next: string[]) => setPaged({ scope, trail: next });
  const cursor = trail.at(-1);
  // What has been seen is marked by the server's clock (`until` of a count taken just before the first page
  // is read), so a browser's skewed clock cannot hide or repeat activity.
  const seen = useRef<string | null>(null);
  const [fresh, setFresh] = useState(0);
  const feed = useLoad(async () => {
    const mark = cursor ? null : await call(api.GET('/activity/recent-count', { params: { query: { type } } }));
    const page = await call(api.GET('/activity', { params: { query: { limit: 25, cursor, contactId, type, tag } } }));
    if (mark) {
      seen.current = mark.until;
      setFresh(0);
    }
    return page;
  }, [project.id, cursor, contactId, type, tag]);
  useEffect(() => {
    const look = async () => {
      const since = seen.current;
      if (!since || feed.loading) return;
      try {
        const { count } = await call(api.GET('/activity/recent-count', { params: { query: { since, type } } }));
        if (count === 0 || since !== seen.current) return;
        if (cursor) setFresh(count);
        else await feed.reload();
      } catch {
        // A failed look is retried at the next tick; the list itself shows the API's errors.
      }
    };
    const timer = setInterval(() => void look(), POLL_MS);
    return () => clearInterval(timer);
  }, [cursor, type, feed.loading, feed.reload]);

  const filter = (next: { type?: ActivityType[]; contact?: string; email?: string; tag?: string }) => {
    const nextTypes = next.type ?? types;
    navigate('/activity', {
      type: nextTypes.length > 0 && nextTypes.length < ACTIVITY_TYPES.length ? nextTypes.join(',') : undefined,
      contact: 'contact' in next ? next.contact : contactId,
      email: 'email' in next ? next.email : contactEmail,
      tag: 'tag' in next ? next.tag : tag,
    });
  };
  const linkTag = (key: string, value: string) =>
    href('/activity', {
      type: types.length > 0 ? types.join(',') : undefined,
      contact: contactId,
      email: contactEmail,
      tag: tagFilter(key, value),
    });
  const page = feed.data;
  return (
    <>
      <PageHeader title="Activity" />
      <Upcoming />
      <div class="toolbar activity-toolbar">
        <TypeFilter chosen={types} onChange={(type) => filter({ type })} />
        <TagField tag={tag} onTag={(next) => filter({ tag: next })} />
        {contactId ? (
          <p class="contact-filter">
            Activity of <strong>{contactEmail ?? contactId}</strong>{' '}
            <button type="button" onClick={() => filter({ contact: undefined, email: undefined })}>
              Show everyone
            </button>
          </p>
        ) : null}
        {tag ? (
          <p class="tag-filter">
            Emails tagged <strong class="break-anywhere">{tag.replace(':', ': ')}</strong>{' '}
            <button type="button" onClick={() => filter({ tag: undefined })}>
              Show every tag
            </button>
          </p>
        ) : null}
      </div>
      {fresh > 0 ? (
        <Notice role="status">
          {fresh.toLocaleString()} new since you looked.{' '}
          <button type="button" onClick={() => setTrail([])}>
            Show the newest
          </button>
        </Notice>
      ) : null}
      <ErrorNote error={feed.error} />
      {!page ? (
        <Loading />
      ) : page.data.length === 0 ? (
        <Empty>
          No activity{' '}
          {types.length > 0 || contactId || tag ? 'matches these filters' : 'yet: it appears here as emails are sent, opened and clicked'}.
        </Empty>
      ) : (
        <>
          {trail.length === 0 ? (
            <p class="muted" role="status" aria-live="polite">
              {page.total.toLocaleString()} {page.total === 1 ? 'activity' : 'activities'}; new ones appear as they happen.
            </p>
          ) : null}
          <Table
            caption="Email activity, newest first"
            rowKey={(item) => `${item.type}-${item.id}`}
            rows={page.data}
            columns={[
              { title: 'When', cell: (item) => dateTime(item.occurredAt) },
              { title: 'What', cell: (item) => <Badge tone={toneOf(item.type)}>{ACTIVITY_LABELS[item.type]}</Badge> },
              {
                title: 'Contact',
                cell: (item) =>
                  item.contact ? (
                    <a
                      class="break-anywhere"
                      href={href('/activity', { contact: item.contact.id, email: item.contact.email })}
                      onClick={(e) => {
                        e.preventDefault();
                        filter({ contact: item.contact!.id, email: item.contact!.email });
                      }}
                    >
                      {item.contact.email}
                    </a>
                  ) : (
                    '—'
                  ),
              },
              {
                title: 'Email',
                cell: (item) =>
                  item.email ? (
                    <>
                      <a href={href(`/emails/${item.email.id}`)}>{item.email.subject || '(no subject)'}</a>
                      <Tags tags={item.email.tags} link={linkTag} />
                    </>
                  ) : (
                    '—'
                  ),
                wide: true,
              },
              { title: 'Detail', cell: (item) => detailOf(item) ?? '', wide: true },
            ]}
          />
          <CursorPager trail={trail} next={page.hasMore ? page.cursor : null} onMove={setTrail} />
        </>
      )}
    </>
  );
}
