import { Field } from '../../ui/form';
import type { ApiFailure } from '../../api/client';

/** The endpoint's event selection as text, one pattern a line; the API's refusal of a pattern shows beside it. */
export function EventsField({ value, onValue, error }: { value: string; onValue: (value: string) => void; error: ApiFailure | null }) {
  return (
    <Field
      label="Events"
      name="events"
      error={error}
      hint="One a line: an event name (signed-up) or a prefix ending in * (email.*). Empty: every event."
    >
      {(id, describedBy) => (
        <textarea id={id} rows={3} aria-describedby={describedBy} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
      )}
    </Field>
  );
}
