import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { Badge, Empty, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { Section } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, usePoll } from '../../ui/use-load';
import { DELIVERY_STATUSES, deliveryTone, type Delivery, type DeliveryStatus } from './types';

const attempt = (d: Delivery) => (d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—'));

/** A signed `webhook.test` message sent now; the API answers with its delivery. */
function TestMessage({ endpointId, sent }: { endpointId: string; sent: () => void }) {
  const [result, setResult] = useState<Delivery | null>(null);
  const test = useAction(async () => {
    setResult(await call(api.POST('/webhook-endpoints/{id}/test', { params: { path: { id: endpointId } } })));
    sent();
  });
  return (
    <div class="actions">
      <button type="button" disabled={test.pending} aria-busy={test.pending} onClick={() => void test.run()}>
        {test.pending ? 'Sending…' : 'Send a test message'}
      </button>
      {result ? (
        <span role="status">
          Test message <Badge tone={deliveryTone(result.status)}>{result.status}</Badge> {attempt(result)}
          {result.lastStatusCode !== null && result.lastError ? `: ${result.lastError}` : ''}
        </span>
      ) : null}
      <ErrorNote error={test.error} />
    </div>
  );
}

/** Events since a moment delivered again, after what is pending; the API takes at most so many at a time. */
function Replay({ endpointId, queued }: { endpointId: string; queued: () => void }) {
  const [since, setSince] = useState('');
  const [answer, setAnswer] = useState<{ queued: number; nextSince: string | null } | null>(null);
  const replay = useAction(async () => {
    const at = since ? new Date(since) : null;
    const body = { since: at && !Number.isNaN(at.getTime()) ? at.toISOString() : since };
    setAnswer(await call(api.POST('/webhook-endpoints/{id}/replay', { params: { path: { id: endpointId } }, body })));
    queued();
  });
  return (
    <Form onSubmit={() => void replay.run()} class="form inline">
      <TextInput
        label="Deliver again the events since"
        name="since"
        type="datetime-local"
        required
        value={since}
        onValue={setSince}
        error={replay.error}
      />
      <Submit pending={replay.pending} busy="Queuing…">
        Replay
      </Submit>
      {answer ? (
        <p role="status">
          {answer.queued} deliver{answer.queued === 1 ? 'y' : 'ies'} queued.
          {answer.nextSince ? ` More matched: replay again from ${dateTime(answer.nextSince)}.` : ''}
        </p>
      ) : null}
      <ErrorNote error={replay.error} />
    </Form>
  );
}

/** The delivery log, newest first, filtered by status and paged by the API; followed while a delivery is pending. */
export function Deliveries({ endpointId }: { endpointId: string }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [page, setPage] = useState(1);
  const log = usePoll(
    () =>
      call(
        api.GET('/webhook-endpoints/{id}/deliveries', {
          params: { path: { id: endpointId }, query: { page, pageSize: 20, status: status || undefined } },
        }),
      ),
    3000,
    [endpointId, page, status],
    (answer) => !!answer?.data.some((d) => d.status === 'PENDING'),
  );
  return (
    <Section title="Deliveries">
      <TestMessage endpointId={endpointId} sent={() => void log.reload()} />
      <div class="toolbar">
        <Select
          label="Status"
          value={status}
          options={[{ value: '' as const, label: 'All' }, ...DELIVERY_STATUSES.map((s) => ({ value: s, label: s }))]}
          onValue={(s) => (setStatus(s), setPage(1))}
        />
      </div>
      <WhenLoaded loaded={log}>
        {({ data, totalPages }) =>
          data.length === 0 ? (
            <Empty>No delivery{status ? ` ${status.toLowerCase()}` : ''} in the last 30 days.</Empty>
          ) : (
            <>
              <Table
                caption="Deliveries"
                rowKey={(d) => d.id}
                rows={data}
                columns={[
                  { title: 'Event', cell: (d) => <code>{d.type}</code> },
                  { title: 'Status', cell: (d) => <Badge tone={deliveryTone(d.status)}>{d.status}</Badge> },
                  { title: 'Attempts', cell: (d) => d.attempts },
                  { title: 'Last answer', cell: (d) => <span class="delivery-error">{attempt(d)}</span>, wide: true },
                  { title: 'Last attempt', cell: (d) => dateTime(d.lastAttemptAt), wide: true },
                  { title: 'Next attempt', cell: (d) => dateTime(d.nextAttemptAt), wide: true },
                ]}
              />
              <OffsetPager page={page} totalPages={totalPages} onPage={setPage} />
            </>
          )
        }
      </WhenLoaded>
      <h3>Replay</h3>
      <Replay endpointId={endpointId} queued={() => void log.reload()} />
    </Section>
  );
}
