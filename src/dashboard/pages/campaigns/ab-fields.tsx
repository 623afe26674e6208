import type { ApiFailure } from '../../api/client';
import { Field, Select, TextInput } from '../../ui/form';
import { emptyVariant, MAX_VARIANTS, type AbDraft, type Draft, type WinnerBy } from './draft';

const WINNER_BY: Array<{ value: WinnerBy; label: string }> = [
  { value: 'OPENS', label: 'Most opens when the wait ends' },
  { value: 'CLICKS', label: 'Most clicks when the wait ends' },
  { value: 'MANUAL', label: 'Chosen by hand (no time limit)' },
];

const letter = (i: number) => String.fromCharCode(65 + i);

/** An A/B test: 2 to 4 variants of subject, body or sender, the test share, the wait and how the winner is chosen. */
export function AbFields({ draft, set, error }: { draft: Draft; set: (patch: Partial<Draft>) => void; error: ApiFailure | null }) {
  const ab = draft.ab;
  const setAb = (patch: Partial<AbDraft>) => set({ ab: { ...ab, ...patch } });
  const setVariant = (i: number, patch: Partial<AbDraft['variants'][number]>) =>
    setAb({ variants: ab.variants.map((v, k) => (k === i ? { ...v, ...patch } : v)) });
  return (
    <>
      <label class="checkbox">
        <input type="checkbox" checked={ab.on} onChange={(e) => setAb({ on: e.currentTarget.checked })} /> Test variants before sending to
        everyone
      </label>
      {ab.on ? (
        <>
          <div class="toolbar">
            <TextInput
              label="Test share (%)"
              name="abTest.testPercent"
              type="number"
              min={1}
              max={90}
              value={ab.testPercent}
              onValue={(testPercent) => setAb({ testPercent })}
              error={error}
              hint="The variants go to equal random parts of it."
            />
            <TextInput
              label="Wait (minutes)"
              name="abTest.waitMinutes"
              type="number"
              min={1}
              value={ab.waitMinutes}
              onValue={(waitMinutes) => setAb({ waitMinutes })}
              error={error}
              hint="From when the test share has left."
            />
            <Select
              label="Winner"
              name="abTest.winnerBy"
              value={ab.winnerBy}
              options={WINNER_BY}
              onValue={(winnerBy) => setAb({ winnerBy })}
              error={error}
            />
          </div>
          {ab.variants.map((v, i) => (
            <fieldset key={i} class="variant">
              <legend>Variant {letter(i)}</legend>
              <TextInput
                label={`Variant ${letter(i)} subject`}
                name={`abTest.variants[${i}].subject`}
                value={v.subject}
                onValue={(subject) => setVariant(i, { subject })}
                error={error}
                hint="Empty: the campaign's subject."
              />
              <TextInput
                label={`Variant ${letter(i)} sender name`}
                name={`abTest.variants[${i}].fromName`}
                value={v.fromName}
                onValue={(fromName) => setVariant(i, { fromName })}
                error={error}
              />
              <TextInput
                label={`Variant ${letter(i)} sender address`}
                name={`abTest.variants[${i}].from`}
                type="email"
                value={v.from}
                onValue={(from) => setVariant(i, { from })}
                error={error}
                hint="On a verified domain; empty: the campaign's."
              />
              <Field
                label={`Variant ${letter(i)} body`}
                name={`abTest.variants[${i}].body`}
                error={error}
                hint="Empty: the campaign's body."
              >
                {(id, describedBy) => (
                  <textarea
                    id={id}
                    value={v.body}
                    aria-describedby={describedBy}
                    onInput={(e) => setVariant(i, { body: e.currentTarget.value })}
                  />
                )}
              </Field>
              {ab.variants.length > 2 ? (
                <button type="button" onClick={() => setAb({ variants: ab.variants.filter((_, k) => k !== i) })}>
                  Remove variant {letter(i)}
                </button>
              ) : null}
            </fieldset>
          ))}
          {ab.variants.length < MAX_VARIANTS ? (
            <button type="button" onClick={() => setAb({ variants: [...ab.variants, emptyVariant()] })}>
              Add a variant
            </button>
          ) : null}
        </>
      ) : null}
    </>
  );
}
