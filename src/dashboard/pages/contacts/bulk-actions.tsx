import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote } from '../../ui/feedback';
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

/** The bulk routes of the API over the selected contacts, with the job's progress until it is done. */
export function BulkActions({ selected, onDone }: { selected: string[]; onDone: () => void }) {
  const [job, setJob] = useState<{ id: string; operation: Operation } | null>(null);
  const start = useAction(async (operation: Operation) => {
    const { jobId } = await call(api.POST(PATHS[operation], { body: { contactIds: selected } }));
    setJob({ id: jobId, operation });
  });
  const count = selected.length;
  return (
    <div class="bulk" role="region" aria-label="Bulk actions">
      <span>{count} selected</span>
      <button type="button" disabled={count === 0 || start.pending} onClick={() => void start.run('subscribe')}>
        Subscribe
      </button>
      <button type="button" disabled={count === 0 || start.pending} onClick={() => void start.run('unsubscribe')}>
        Unsubscribe
      </button>
      <ConfirmButton
        label="Delete"
        confirm={`Delete ${count} contact${count === 1 ? '' : 's'} and their events?`}
        danger
        disabled={count === 0 || start.pending}
        onConfirm={() => start.run('delete')}
      />
      <ErrorNote error={start.error} />
      {job ? (
        <JobProgress
          key={job.id}
          label={`Bulk ${job.operation}`}
          load={() => call(api.GET('/contacts/bulk/{jobId}', { params: { path: { jobId: job.id } } }))}
          onDone={onDone}
        >
          {(j) => (
            <p class="muted">
              {j.result.successCount} {DONE[j.result.operation]}, {j.result.unchangedCount} unchanged, {j.result.failureCount} not found
            </p>
          )}
        </JobProgress>
      ) : null}
    </div>
  );
}
