import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer, RequestBody } from '../../api/types';
import { href } from '../../router';
import { Badge, ErrorNote, Loading } from '../../ui/feedback';
import { Select } from '../../ui/form';
import { Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import './consent.css';

type Consent = Answer<'/contacts/{id}/consent', 'get'>;
type Period = NonNullable<RequestBody<'/contacts/{id}/consent', 'patch'>['snooze']>;

const PERIODS: Array<{ value: Period; label: string }> = [
  { value: 'TWO_WEEKS', label: '2 weeks' },
  { value: 'ONE_MONTH', label: '1 month' },
  { value: 'THREE_MONTHS', label: '3 months' },
];

function Confirmation({ consent }: { consent: Consent }) {
  const { state, confirmedAt, pending } = consent.confirmation;
  return (
    <div>
      <dt>Confirmation</dt>
      <dd>
        {state === 'UNCONFIRMED' ? (
          <Badge tone="warn">awaiting confirmation</Badge>
        ) : state === 'CONFIRMED' ? (
          <Badge tone="good">confirmed {dateTime(confirmedAt)}</Badge>
        ) : (
          <Badge>not asked</Badge>
        )}
        {pending ? (
          <div class="muted">
            Link mailed {dateTime(pending.lastSentAt)}; it works until {dateTime(pending.expiresAt)}
          </div>
        ) : null}
      </dd>
    </div>
  );
}

/** A contact's consent (docs/consent.md): its double opt-in confirmation, its snooze and its topics. */
export function ContactConsent({ contactId, changed }: { contactId: string; changed: () => void }) {
  const path = { id: contactId };
  const loaded = useLoad(() => call(api.GET('/contacts/{id}/consent', { params: { path } })), [contactId]);
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const [period, setPeriod] = useState<Period>('TWO_WEEKS');
  const patch = useAction(async (body: RequestBody<'/contacts/{id}/consent', 'patch'>) => {
    await call(api.PATCH('/contacts/{id}/consent', { params: { path }, body }));
    setChosen({});
    await loaded.reload();
    changed();
  });
  const consent = loaded.data;
  if (!consent) return <Section title="Consent">{loaded.error ? <ErrorNote error={loaded.error} /> : <Loading />}</Section>;
  const member = (topicId: string, stored: boolean) => chosen[topicId] ?? stored;
  const changes = consent.topics
    .filter((t) => member(t.topicId, t.member) !== t.member)
    .map((t) => ({ topicId: t.topicId, member: !t.member }));
  return (
    <Section title="Consent">
      <dl class="stats">
        <Confirmation consent={consent} />
        <div>
          <dt>Marketing</dt>
          <dd>
            {consent.snoozedUntil ? (
              <Badge tone="warn">paused until {dateTime(consent.snoozedUntil)}</Badge>
            ) : (
              <Badge tone="good">not paused</Badge>
            )}
          </dd>
        </div>
      </dl>
      {consent.snoozedUntil ? (
        <button type="button" disabled={patch.pending} onClick={() => void patch.run({ snooze: null })}>
          Resume now
        </button>
      ) : (
        <div class="form inline">
          <Select label="Pause marketing for" value={period} options={PERIODS} onValue={setPeriod} />
          <button type="button" disabled={patch.pending} onClick={() => void patch.run({ snooze: period })}>
            Pause
          </button>
        </div>
      )}
      <fieldset class="choices">
        <legend>Topics</legend>
        {consent.topics.length === 0 ? (
          <p class="muted">
            The project has no topic (<a href={href('/topics')}>Topics</a>).
          </p>
        ) : (
          consent.topics.map((t) => (
            <label key={t.topicId}>
              <input
                type="checkbox"
                checked={member(t.topicId, t.member)}
                onChange={(e) => setChosen({ ...chosen, [t.topicId]: e.currentTarget.checked })}
              />{' '}
              {t.name}
              {t.chosen ? null : <span class="muted"> (the topic's default)</span>}
            </label>
          ))
        )}
      </fieldset>
      <button
        type="button"
        class="primary"
        disabled={patch.pending || changes.length === 0}
        onClick={() => void patch.run({ topics: changes })}
      >
        Save topics
      </button>
      <ErrorNote error={patch.error} />
    </Section>
  );
}
