import { api, call } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { useDebounced } from '../ui/use-debounced';
import { useLoad } from '../ui/use-load';
import { unfinished, type Tree } from './model';

/**
 * How many contacts the condition being edited matches now (POST /segments/count, which checks it as a save
 * would), asked once typing pauses; the API's refusal shows in place of the count. `noun` names what is
 * counted ("subscribed contact"); `empty` explains a count of 0. A condition still being filled in is not sent.
 */
export function LiveCount({
  tree,
  segmentId,
  noun = 'contact',
  empty,
}: {
  tree: Tree;
  segmentId?: string;
  noun?: string;
  /** What to say when nothing matches: why, and how to change it. */
  empty?: preact.ComponentChildren;
}) {
  const settled = useDebounced(JSON.stringify(tree), 400);
  const incomplete = unfinished(JSON.parse(settled) as Tree);
  const count = useLoad(
    () =>
      incomplete
        ? Promise.resolve(null)
        : call(api.POST('/segments/count', { body: { condition: JSON.parse(settled) as Tree, segmentId } })),
    [settled, segmentId],
  );
  const stale = count.loading || settled !== JSON.stringify(tree);
  const matched = count.data?.memberCount;
  return (
    <div class="live-count" aria-busy={stale}>
      <p role="status" aria-live="polite">
        {incomplete ? (
          'Finish the condition to count it.'
        ) : count.error ? (
          'No count: the condition is refused.'
        ) : matched !== undefined ? (
          <>
            <strong data-testid="live-count">{matched.toLocaleString()}</strong> {matched === 1 ? `${noun} matches` : `${noun}s match`} now
            {stale ? <span class="muted"> (counting…)</span> : null}
          </>
        ) : (
          'Counting…'
        )}
      </p>
      <ErrorNote error={count.error} />
      {matched === 0 && !stale && empty ? <div class="live-count-empty">{empty}</div> : null}
    </div>
  );
}
