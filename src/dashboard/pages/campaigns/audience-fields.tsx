import { api, call, type ApiFailure } from '../../api/client';
import { TreeEditor } from '../../filters/builder';
import { contactCatalog } from '../../filters/catalog';
import { LiveCount } from '../../filters/live-count';
import { andAlso } from '../../filters/model';
import { Select } from '../../ui/form';
import { ErrorNote, Loading } from '../../ui/feedback';
import { useLoad } from '../../ui/use-load';
import { audienceTree, type AudienceType, type Draft } from './draft';

const audiences: Array<{ value: AudienceType; label: string }> = [
  { value: 'ALL', label: 'All subscribed contacts' },
  { value: 'SEGMENT', label: 'A segment' },
  { value: 'FILTERED', label: 'Contacts matching a condition' },
];

type Props = { draft: Draft; set: (patch: Partial<Draft>) => void; error: ApiFailure | null };

/**
 * Whether the campaign reaches subscribed contacts only: all but TRANSACTIONAL ones do (docs/campaigns.md),
 * and without a type of its own a campaign takes its template's.
 */
function useSubscribedOnly(draft: Draft): boolean {
  const templateId = draft.type === '' ? draft.templateId : '';
  const template = useLoad(
    () => (templateId ? call(api.GET('/templates/{id}', { params: { path: { id: templateId } } })) : Promise.resolve(null)),
    [templateId],
  );
  return (draft.type || template.data?.type) !== 'TRANSACTIONAL';
}

/**
 * The FILTERED audience: the filter builder and, while it is edited, how many contacts it reaches now. A
 * campaign's condition is a segment's condition (the same tree, checked the same way), so POST
 * /segments/count counts it; the subscription rule is added as one more filter in every group.
 */
function FilteredAudience({ draft, set }: Props) {
  const catalog = useLoad(() => contactCatalog(), []);
  const subscribedOnly = useSubscribedOnly(draft);
  if (!catalog.data) return catalog.error ? <ErrorNote error={catalog.error} /> : <Loading />;
  const tree = audienceTree(draft);
  return (
    <>
      <fieldset class="condition">
        <legend>Condition</legend>
        <TreeEditor tree={draft.condition} catalog={catalog.data} onChange={(condition) => set({ condition })} />
      </fieldset>
      <LiveCount
        tree={subscribedOnly ? andAlso(tree, { field: 'subscribed', operator: 'equals', value: true }) : tree}
        noun={subscribedOnly ? 'subscribed contact' : 'contact'}
      />
    </>
  );
}

/** Who receives the campaign; the exact count is shown by the saved draft, counted by the API. */
export function AudienceFields(props: Props) {
  const { draft, set, error } = props;
  const segments = useLoad(() => call(api.GET('/segments')), []);
  return (
    <fieldset>
      <legend class="sr-only">Audience</legend>
      <Select
        label="Audience"
        name="audienceType"
        value={draft.audienceType}
        options={audiences}
        onValue={(audienceType) => set({ audienceType })}
        error={error}
      />
      {draft.audienceType === 'SEGMENT' ? (
        <>
          <Select
            label="Segment"
            name="segmentId"
            value={draft.segmentId}
            error={error}
            onValue={(segmentId) => set({ segmentId })}
            options={[
              { value: '', label: segments.data ? 'Choose a segment' : 'Loading segments…' },
              ...(segments.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.memberCount.toLocaleString()} members)` })),
            ]}
          />
          <ErrorNote error={segments.error} />
        </>
      ) : null}
      {draft.audienceType === 'FILTERED' ? <FilteredAudience {...props} /> : null}
    </fieldset>
  );
}
