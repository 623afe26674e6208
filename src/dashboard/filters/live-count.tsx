import { api, call } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { useDebounced } from '../ui/use-debounced';
import { useLoad } from '../ui/use-load';
import type { Tree } from './model';

/**
 * How many contacts the condition being edited matches now (POST /segments/count, which checks it as a save
 * would), asked once typing pauses; the API's refusal shows in place of the count. `noun` names what is
 * counted ("subscribed contact").
 */
export function LiveCount({ tree, segmentId, noun = 'contact' }: { tree: Tree; segmentId?: string; noun?: string }) {
  const settled = useDebounced(JSON.stringify(tree), 400);
  const count = useLoad(
    () => call(api.POST('/segments/count', { body: { condition: JSON.parse(settled) as Tree, segmentId } })),
    [settled, segmentId],
  );
  const stale = count.loading || settled !== JSON.stringify(tree);
  return (
    <div class="live-count" aria-busy={stale}>
      <p role="status" aria-live="polite">
        {count.error ? (
          'No count: the condition is refused.'
        ) : count.data ? (
          <>
            <strong data-testid="live-count">{count.data.memberCount.toLocaleString()}</strong>{' '}
            {count.data.memberCount === 1 ? `${noun} matches` : `${noun}s match`} now
            {stale ? <span class="muted"> (counting…)</span> : null}
          </>
        ) : (
          'Counting…'
        )}
      </p>
      <ErrorNote error={count.error} />
    </div>
  );
}
