import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { useProject } from '../../session';
import { Empty, WhenLoaded } from '../../ui/feedback';
import { Select, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { CursorPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useDebounced } from '../../ui/use-debounced';
import { useLoad } from '../../ui/use-load';
import { BulkActions } from './bulk-actions';
import { CreateContact } from './create-contact';
import { SubscriptionBadge } from './subscription';
import './contacts.css';

type Contact = Answer<'/contacts', 'get'>['data'][number];
type Subscription = '' | 'true' | 'false';

const FILTERS: Array<{ value: Subscription; label: string }> = [
  { value: '', label: 'All contacts' },
  { value: 'true', label: 'Subscribed' },
  { value: 'false', label: 'Unsubscribed' },
];
const SIZES = ['20', '50', '100'].map((n) => ({ value: n, label: n }));
const oneOf = <T extends string>(options: Array<{ value: T }>, value: string | null, fallback: T): T =>
  options.find((o) => o.value === value)?.value ?? fallback;

/** The project's contacts: searched, filtered and paged by the API; the total is on the first page. */
export function Contacts({ query: initial }: { query: URLSearchParams }) {
  const project = useProject();
  const [search, setSearch] = useState(initial.get('search') ?? '');
  const [subscribed, setSubscribed] = useState<Subscription>(oneOf(FILTERS, initial.get('subscribed'), ''));
  const [limit, setLimit] = useState(oneOf(SIZES, initial.get('limit'), '20'));
  const [trail, setTrail] = useState<string[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const term = useDebounced(search.trim());
  // The search and filter live in the address too, so coming back from a contact finds the list as it was.
  useEffect(() => {
    history.replaceState(null, '', href('/contacts', { search: term, subscribed, limit: limit === '20' ? undefined : limit }));
  }, [term, subscribed, limit]);
  const cursor = trail[trail.length - 1];
  const page = useLoad(async () => {
    const query = { search: term || undefined, subscribed: subscribed || undefined, limit: Number(limit), cursor };
    const answer = await call(api.GET('/contacts', { params: { query } }));
    // `total` counts every match on the first page only (docs/contacts.md "Listing").
    if (!cursor) setTotal(answer.total);
    // The pager numbers the page shown, not the one still loading.
    return { ...answer, trail };
  }, [project.id, term, subscribed, limit, cursor]);

  /** A new search, filter or size starts again at the first page. */
  const restart =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setTrail([]);
      setSelected([]);
    };
  const rows = page.data?.data ?? [];
  const allChosen = rows.length > 0 && rows.every((c) => selected.includes(c.id));
  const toggle = (id: string) => setSelected(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);

  return (
    <>
      <PageHeader title="Contacts">
        <a class="button" href={href('/contacts/import')}>
          Import CSV
        </a>
      </PageHeader>
      <CreateContact />
      <div class="toolbar contacts-toolbar" role="search">
        <TextInput label="Search by email" type="search" value={search} onValue={restart(setSearch)} />
        <Select label="Subscription" value={subscribed} options={FILTERS} onValue={restart(setSubscribed)} />
        <Select label="Per page" value={limit} options={SIZES} onValue={restart(setLimit)} />
      </div>
      <p class="muted" role="status">
        {total === null ? '' : `${total.toLocaleString()} contact${total === 1 ? '' : 's'}${term ? ` matching “${term}”` : ''}`}
      </p>
      <BulkActions
        selected={selected}
        suppressed={rows.filter((c) => c.suppression && selected.includes(c.id)).length}
        onDone={() => {
          setSelected([]);
          setTrail([]);
          void page.reload();
        }}
      />
      <WhenLoaded loaded={page}>
        {(shown) =>
          rows.length === 0 ? (
            <Empty>{term || subscribed ? 'No contact matches.' : 'No contacts yet: create one above or import a CSV.'}</Empty>
          ) : (
            <>
              <Table<Contact>
                caption="Contacts"
                rowKey={(c) => c.id}
                rows={rows}
                columns={[
                  {
                    title: 'Select',
                    cell: (c) => (
                      <input
                        type="checkbox"
                        aria-label={`Select ${c.email}`}
                        checked={selected.includes(c.id)}
                        onChange={() => toggle(c.id)}
                      />
                    ),
                  },
                  { title: 'Email', cell: (c) => <a href={href(`/contacts/${c.id}`)}>{c.email}</a> },
                  {
                    title: 'Subscription',
                    cell: (c) => <SubscriptionBadge contact={c} />,
                  },
                  { title: 'Fields', cell: (c) => Object.keys(c.data).length, wide: true },
                  { title: 'Created', cell: (c) => dateTime(c.createdAt), wide: true },
                ]}
              />
              <div class="contacts-footer">
                <label class="select-page">
                  <input type="checkbox" checked={allChosen} onChange={() => setSelected(allChosen ? [] : rows.map((c) => c.id))} /> Select
                  this page
                </label>
                <CursorPager
                  trail={shown.trail}
                  next={shown.hasMore ? shown.cursor : null}
                  onMove={(t) => {
                    setTrail(t);
                    setSelected([]);
                  }}
                />
              </div>
            </>
          )
        }
      </WhenLoaded>
    </>
  );
}
