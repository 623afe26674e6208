import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote } from '../../ui/feedback';
import { count, plural } from '../../ui/format';
import { useAction } from '../../ui/use-load';
import { JobProgress } from './job-progress';

type BulkJob = Answer<'/contacts/bulk/{jobId}', 'get'>;
type Operation = BulkJob['result']['operation'];

const PATHS = {
  subscribe: '/contacts/bulk-subscribe',
  unsubscribe: '/contacts/bulk-unsubscribe',
  delete: '/contacts/bulk-delete',
} as const;

const DONE: Record<Operation, string> = { subscribe: 'subscribed', unsubscribe: 'unsubscribed', delete: 'deleted' };

const SUPPRESSED = /^Suppressed/;

/** What the job did, from its result: a bulk subscribe names each suppressed contact it skipped in `errors`. */
function summary(j: BulkJob): string {
  const r = j.result;
  const skipped = r.errors.filter((e) => SUPPRESSED.test(e.error)).length;
  const parts = [`${count(r.successCount)} ${DONE[r.operation]}`, `${count(r.unchangedCount)} unchanged`];
  if (skipped > 0) parts.push(`${count(skipped)} skipped: suppressed (bounced or complained)`);
  if (r.failureCount - skipped > 0) parts.push(`${count(r.failureCount - skipped)} not found`);
  return parts.join(', ');
}

/**
 * The bulk routes of the API over the selected contacts, with the job's progress until it is done. A bulk
 * subscribe skips suppressed contacts (the API does, docs/contacts.md); `suppressed` of the selected are
 * named before it starts.
 */
export function BulkActions({ selected, suppressed, onDone }: { selected: string[]; suppressed: number; onDone: () => void }) {
  const [job, setJob] = useState<{ id: string; operation: Operation } | null>(null);
  const start = useAction(async (operation: Operation) => {
    const { jobId } = await call(api.POST(PATHS[operation], { body: { contactIds: selected } }));
    setJob({ id: jobId, operation });
  });
  const none = selected.length === 0;
  return (
    <div class="bulk" role="region" aria-label="Bulk actions">
      <span>{count(selected.length)} selected</span>
      <button type="button" disabled={none || start.pending} onClick={() => void start.run('subscribe')}>
        Subscribe
      </button>
      <button type="button" disabled={none || start.pending} onClick={() => void start.run('unsubscribe')}>
        Unsubscribe
      </button>
      <ConfirmButton
        label="Delete"
        confirm={`Delete ${plural(selected.length, 'contact')} and their events?`}
        danger
        disabled={none || start.pending}
        onConfirm={() => start.run('delete')}
      />
      {suppressed > 0 ? (
        <span class="muted">
          {plural(suppressed, 'selected contact is', 'selected contacts are')} suppressed: Subscribe skips{' '}
          {suppressed === 1 ? 'it' : 'them'}.
        </span>
      ) : null}
      <ErrorNote error={start.error} />
      {job ? (
        <JobProgress
          key={job.id}
          label={`Bulk ${job.operation}`}
          load={() => call(api.GET('/contacts/bulk/{jobId}', { params: { path: { jobId: job.id } } }))}
          onDone={onDone}
        >
          {(j) => <p class="muted">{summary(j)}</p>}
        </JobProgress>
      ) : null}
    </div>
  );
}
