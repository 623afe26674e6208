import { api, call, type ApiFailure } from '../../api/client';
import { TreeEditor } from '../../filters/builder';
import { contactCatalog } from '../../filters/catalog';
import { LiveCount } from '../../filters/live-count';
import { Select } from '../../ui/form';
import { ErrorNote, Loading } from '../../ui/feedback';
import { useLoad } from '../../ui/use-load';
import { href } from '../../router';
import { audienceCountTree, type AudienceType, type Draft } from './draft';
import { loadTopics } from '../consent/topics';

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

/** The FILTERED audience's condition, in the shared filter builder. */
function FilteredAudience({ draft, set }: Props) {
  const catalog = useLoad(() => contactCatalog(), []);
  if (!catalog.data) return catalog.error ? <ErrorNote error={catalog.error} /> : <Loading />;
  return (
    <fieldset class="condition">
      <legend>Condition</legend>
      <TreeEditor tree={draft.condition} catalog={catalog.data} onChange={(condition) => set({ condition })} />
    </fieldset>
  );
}

/** Why an audience reaches nobody, and what to do: the API refuses to send to it (docs/campaigns.md "Sending"). */
export function EmptyAudience({ subscribedOnly }: { subscribedOnly: boolean }) {
  return subscribedOnly ? (
    <p>
      Sending needs at least one. A contact that <code>/v1/send</code> or an import without a <code>subscribed</code> column made is not
      subscribed: <a href={href('/contacts', { subscribed: 'false' })}>subscribe contacts</a> on the Contacts page, or choose another
      audience.
    </p>
  ) : (
    <p>Sending needs at least one: choose another audience, or add contacts.</p>
  );
}

/** How many contacts the audience being edited reaches now, counted by the API as it would count the saved draft. */
function AudienceCount({ draft }: { draft: Draft }) {
  const subscribedOnly = useSubscribedOnly(draft);
  const tree = audienceCountTree(draft, subscribedOnly);
  return tree ? (
    <LiveCount
      tree={tree}
      noun={subscribedOnly ? 'subscribed contact' : 'contact'}
      empty={<EmptyAudience subscribedOnly={subscribedOnly} />}
    />
  ) : null;
}

/** Who receives the campaign, and how many contacts that is now. */
export function AudienceFields(props: Props) {
  const { draft, set, error } = props;
  const segments = useLoad(() => call(api.GET('/segments')), []);
  const topics = useLoad(loadTopics, []);
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
      {topics.data && topics.data.length > 0 ? (
        <Select
          label="About a topic (MARKETING only)"
          name="topicId"
          value={draft.topicId}
          error={error}
          onValue={(topicId) => set({ topicId })}
          options={[
            { value: '', label: 'No topic: everyone in the audience' },
            ...topics.data.map((t) => ({ value: t.id, label: `${t.name}: its members only` })),
          ]}
        />
      ) : null}
      <AudienceCount draft={draft} />
    </fieldset>
  );
}
