import { useRef, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { Badge, WhenLoaded } from '../../ui/feedback';
import { Select } from '../../ui/form';
import { dateTime } from '../../ui/format';
import { CursorPager, Table, type Column } from '../../ui/lists';
import { useLoad } from '../../ui/use-load';

type Recipient = Answer<'/campaigns/{id}/recipients', 'get'>['data'][number];
type Filter = '' | Recipient['status'] | 'NOT_SENT';

/** The filters a person asks after a send, "who did not get it" first (docs/campaigns.md "Who did not get it"). */
const FILTERS: Array<{ value: Filter; label: string }> = [
  { value: '', label: 'Everyone' },
  { value: 'NOT_SENT', label: 'Did not get it' },
  { value: 'SKIPPED', label: 'Skipped' },
  { value: 'NOT_ATTEMPTED', label: 'Never attempted' },
  { value: 'FAILED', label: 'Failed' },
  { value: 'SUPPRESSED', label: 'Suppressed' },
  { value: 'PENDING', label: 'Waiting to send' },
  { value: 'SENT', label: 'Sent' },
  { value: 'DELIVERED', label: 'Delivered' },
  { value: 'OPENED', label: 'Opened' },
  { value: 'CLICKED', label: 'Clicked' },
  { value: 'BOUNCED', label: 'Bounced' },
  { value: 'COMPLAINED', label: 'Complained' },
  { value: 'CONTACT_DELETED', label: 'Contact deleted' },
];

const SKIPPED_BECAUSE: Record<NonNullable<Recipient['reason']>, string> = {
  UNSUBSCRIBED: 'Unsubscribed before its email was made',
  UNCONFIRMED: 'Its subscription awaits confirmation',
  SNOOZED: 'Snoozed marketing email',
  NOT_IN_TOPIC: "Left the campaign's topic",
  RENDER_FAILED: 'The email did not render',
  ADDRESS_REFUSED: 'No email may go to this address',
  FREQUENCY_CAPPED: "The project's frequency cap held it back",
};

const WHY_NOT_ATTEMPTED = 'Never handed to the SMTP server (the send was cancelled, or has not reached it yet)';

function why(r: Recipient): string {
  if (r.status === 'SKIPPED' && r.reason) return r.detail ? `${SKIPPED_BECAUSE[r.reason]}: ${r.detail}` : SKIPPED_BECAUSE[r.reason];
  if (r.status === 'NOT_ATTEMPTED') return WHY_NOT_ATTEMPTED;
  if (r.status === 'CONTACT_DELETED') return 'The contact was deleted, and its email with it';
  return r.detail ?? '';
}

const BAD = new Set<Recipient['status']>(['FAILED', 'BOUNCED', 'COMPLAINED', 'SUPPRESSED', 'SKIPPED', 'NOT_ATTEMPTED']);
const GOOD = new Set<Recipient['status']>(['DELIVERED', 'OPENED', 'CLICKED']);
/** NOT_ATTEMPTED reads "Not attempted". */
const word = (s: Recipient['status']) => (s.charAt(0) + s.slice(1).toLowerCase()).replace(/_/g, ' ');
const tone = (s: Recipient['status']) => (BAD.has(s) ? 'bad' : GOOD.has(s) ? 'good' : 'neutral');

const COLUMNS: Column<Recipient>[] = [
  {
    title: 'Recipient',
    cell: (r) => (r.email ? <a href={href(`/contacts/${r.contactId}`)}>{r.email}</a> : <span class="muted">deleted contact</span>),
  },
  { title: 'Status', cell: (r) => <Badge tone={tone(r.status)}>{word(r.status)}</Badge> },
  { title: 'Why', cell: why },
  { title: 'Sent', cell: (r) => (r.sentAt ? dateTime(r.sentAt) : ''), wide: true },
];

/**
 * Every recipient the send fixed, with what became of it: `GET /campaigns/{id}/recipients`, filtered by
 * status. It loads again whenever the page's figures do (`version` changes), so the two agree.
 */
export function Recipients({ campaignId, version }: { campaignId: string; version: string }) {
  const [status, setStatus] = useState<Filter>('');
  const [trail, setTrail] = useState<string[]>([]);
  // `total` counts every match on the first page only; later pages keep the first page's.
  const firstTotal = useRef(0);
  const cursor = trail[trail.length - 1];
  const page = useLoad(async () => {
    const query = { status: status || undefined, cursor };
    const answer = await call(api.GET('/campaigns/{id}/recipients', { params: { path: { id: campaignId }, query } }));
    if (!cursor) firstTotal.current = answer.total;
    // The pager numbers the page shown, not the one still loading.
    // Shown with the rows it belongs to, never ahead of them.
    return { ...answer, total: firstTotal.current, trail };
  }, [campaignId, status, cursor, version]);
  return (
    <>
      <div class="toolbar" role="search">
        <Select
          label="Show"
          value={status}
          options={FILTERS}
          onValue={(v) => {
            setStatus(v);
            setTrail([]);
          }}
        />
        <button type="button" onClick={() => void page.reload()} disabled={page.loading}>
          Refresh
        </button>
      </div>
      <p class="muted" role="status" data-testid="recipients-total">
        {page.data ? `${page.data.total.toLocaleString()} recipient${page.data.total === 1 ? '' : 's'}` : ''}
      </p>
      <WhenLoaded loaded={page} what="Loading recipients">
        {({ data }) => (
          <Table caption="Recipients" columns={COLUMNS} rows={data} rowKey={(r) => r.contactId} empty="No recipient in this state." />
        )}
      </WhenLoaded>
      {page.data && (page.data.trail.length > 0 || page.data.hasMore) ? (
        <CursorPager trail={page.data.trail} next={page.data.hasMore ? page.data.cursor : null} onMove={setTrail} />
      ) : null}
    </>
  );
}
