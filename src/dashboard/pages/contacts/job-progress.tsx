import { useEffect, useState } from 'preact/hooks';
import type { ApiFailure } from '../../api/client';
import { ErrorNote, Progress } from '../../ui/feedback';

/** What `GET /contacts/import/{jobId}` and `GET /contacts/bulk/{jobId}` answer (docs/jobs.md). */
export interface JobView<R> {
  id: string;
  state: 'waiting' | 'active' | 'completed' | 'failed';
  progress: number;
  result: R;
  failedReason?: string;
}

const POLL_MS = 500;
export const finished = (state: JobView<unknown>['state']) => state === 'completed' || state === 'failed';

/**
 * Follows a queued job until it completes or fails: polls every half second, then stops and calls `onDone`
 * once. Shows the progress bar meanwhile; `children` renders the counters (so far, then final).
 */
export function JobProgress<R>({
  label,
  load,
  onDone,
  children,
}: {
  label: string;
  load: () => Promise<JobView<R>>;
  onDone?: (job: JobView<R>) => void;
  children: (job: JobView<R>) => preact.ComponentChildren;
}) {
  const [job, setJob] = useState<JobView<R> | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await load();
        if (stopped) return;
        setJob(next);
        setError(null);
        if (finished(next.state)) return onDone?.(next);
      } catch (err) {
        if (stopped) return;
        setError(err as ApiFailure);
      }
      timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return (
    <div class="job" aria-live="polite">
      <Progress label={`${label}: ${job ? stateLabel[job.state] : 'starting'}`} value={job?.progress ?? 0} max={100} percent />
      {job?.state === 'failed' ? <p class="field-error">{job.failedReason}</p> : null}
      <ErrorNote error={error} />
      {job ? children(job) : null}
    </div>
  );
}

const stateLabel: Record<JobView<unknown>['state'], string> = {
  waiting: 'queued',
  active: 'running',
  completed: 'done',
  failed: 'failed',
};
