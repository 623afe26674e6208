import type { ApiFailure } from '../../api/client';
import { Select, TextInput } from '../../ui/form';
import type { SignupForm } from './forms';

export type FieldDraft = SignupForm['fields'][number];
type Input = FieldDraft['type'];

const INPUTS: Array<{ value: Input; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'checkbox', label: 'Checkbox' },
  { value: 'email', label: 'Email address' },
];

/** The custom field a row fills, as typed: `firstName` stands for `data.firstName`. */
const pathOf = (key: string) => key.replace(/^data\./, '');

/**
 * The fields of a form, in order: the email field first and fixed, then custom fields, each with its label,
 * the custom field it fills, its input and whether it is required.
 */
export function FormFields({
  fields,
  onChange,
  error,
}: {
  fields: FieldDraft[];
  onChange: (fields: FieldDraft[]) => void;
  error: ApiFailure | null;
}) {
  const set = (i: number, patch: Partial<FieldDraft>) => onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div class="form-fields">
      {fields.map((field, i) => {
        const email = field.key === 'email';
        return (
          <fieldset key={i}>
            <legend>{email ? 'Email field' : `Field ${i + 1}`}</legend>
            <TextInput
              label="Label"
              name={`fields.${i}.label`}
              required
              maxLength={200}
              value={field.label}
              onValue={(label) => set(i, { label })}
              error={error}
            />
            {email ? (
              <p class="muted">The contact's address: always asked, always required.</p>
            ) : (
              <>
                <TextInput
                  label="Custom field"
                  name={`fields.${i}.key`}
                  required
                  hint="The contact data it fills, e.g. firstName or profile.company"
                  value={pathOf(field.key)}
                  onValue={(path) => set(i, { key: `data.${path}` })}
                  error={error}
                />
                <Select
                  label="Input"
                  name={`fields.${i}.type`}
                  value={field.type}
                  options={INPUTS}
                  onValue={(type) => set(i, { type })}
                  error={error}
                />
                <label class="check">
                  <input type="checkbox" checked={field.required} onChange={(e) => set(i, { required: e.currentTarget.checked })} />{' '}
                  Required
                </label>
                <button type="button" onClick={() => onChange(fields.filter((_, j) => j !== i))}>
                  Remove field {i + 1}
                </button>
              </>
            )}
          </fieldset>
        );
      })}
      <button
        type="button"
        onClick={() => onChange([...fields, { key: 'data.', label: '', type: 'text', required: false }])}
        disabled={fields.length >= 20}
      >
        Add a field
      </button>
    </div>
  );
}
