import { useEffect } from 'preact/hooks';
import type { Answer } from '../../api/types';
import { ErrorNote, Progress } from '../../ui/feedback';
import { usePoll } from '../../ui/use-load';

/** What `GET /contacts/import/{jobId}` and `GET /contacts/bulk/{jobId}` answer (docs/jobs.md). */
type JobView = Answer<'/contacts/import/{jobId}', 'get'> | Answer<'/contacts/bulk/{jobId}', 'get'>;

const POLL_MS = 500;
const finished = (state: JobView['state']) => state === 'completed' || state === 'failed';

/**
 * Follows a queued job until it completes or fails: polls half a second after each answer, then stops and
 * calls `onDone` once. Shows the progress bar meanwhile; `children` renders the counters (so far, then final).
 */
export function JobProgress<J extends JobView>({
  label,
  load,
  onDone,
  children,
}: {
  label: string;
  load: () => Promise<J>;
  onDone?: (job: J) => void;
  children: (job: J) => preact.ComponentChildren;
}) {
  const polled = usePoll(load, POLL_MS, [], (j) => !j || !finished(j.state));
  const job = polled.data ?? null;
  const done = job !== null && finished(job.state);
  useEffect(() => {
    if (done) onDone?.(job);
  }, [done]);
  return (
    <div class="job" aria-live="polite">
      <Progress label={`${label}: ${job ? stateLabel[job.state] : 'starting'}`} value={job?.progress ?? 0} max={100} percent />
      {job?.state === 'failed' ? <p class="field-error">{job.failedReason}</p> : null}
      <ErrorNote error={polled.error} />
      {job ? children(job) : null}
    </div>
  );
}

const stateLabel: Record<JobView['state'], string> = {
  waiting: 'queued',
  active: 'running',
  completed: 'done',
  failed: 'failed',
};
