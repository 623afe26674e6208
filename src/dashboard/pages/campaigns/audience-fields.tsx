import { api, call, type ApiFailure } from '../../api/client';
import { Field, Select } from '../../ui/form';
import { ErrorNote } from '../../ui/feedback';
import { useLoad } from '../../ui/use-load';
import type { AudienceType, Draft } from './draft';

const audiences: Array<{ value: AudienceType; label: string }> = [
  { value: 'ALL', label: 'All subscribed contacts' },
  { value: 'SEGMENT', label: 'A segment' },
  { value: 'FILTERED', label: 'Contacts matching a condition' },
];

const example = '{"logic": "AND", "groups": [{"filters": [{"field": "data.plan", "operator": "equals", "value": "pro"}]}]}';

/** Who receives the campaign; the exact count is shown by the saved draft, counted by the API. */
export function AudienceFields({ draft, set, error }: { draft: Draft; set: (patch: Partial<Draft>) => void; error: ApiFailure | null }) {
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
      {draft.audienceType === 'FILTERED' ? (
        <Field label="Condition (filter tree, JSON)" name="audienceCondition" error={error} hint={`For example ${example}`}>
          {(id, describedBy) => (
            <textarea
              id={id}
              value={draft.condition}
              aria-describedby={describedBy}
              spellcheck={false}
              onInput={(e) => set({ condition: e.currentTarget.value })}
            />
          )}
        </Field>
      ) : null}
    </fieldset>
  );
}
