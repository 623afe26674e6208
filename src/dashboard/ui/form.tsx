import { useId } from 'preact/hooks';
import type { ApiFailure } from '../api/client';
import { ErrorNote } from './feedback';

interface FieldProps {
  label: string;
  /** The API's field name, so its refusal shows beside the input. */
  name?: string;
  error?: ApiFailure | null;
  hint?: string;
  children: (id: string, describedBy: string | undefined) => preact.ComponentChildren;
}

/** A label, an input (rendered by `children` with the ids to wire), the hint, and the API's refusal of the field. */
export function Field({ label, name, error, hint, children }: FieldProps) {
  const id = useId();
  const problem = name ? error?.fields.find((f) => f.field === name || f.field.startsWith(`${name}.`)) : undefined;
  const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${problem ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children(id, describedBy)}
      {hint ? (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      ) : null}
      {problem ? (
        <small id={`${id}-error`} class="field-error">
          {problem.message}
        </small>
      ) : null}
    </div>
  );
}

interface InputProps {
  label: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'search' | 'url' | 'datetime-local' | 'date' | 'time';
  autoComplete?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  placeholder?: string;
  disabled?: boolean;
  name?: string;
  error?: ApiFailure | null;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
}

export function TextInput({ label, name, error, hint, value, onValue, ...rest }: InputProps) {
  return (
    <Field label={label} name={name} error={error} hint={hint}>
      {(id, describedBy) => (
        <input
          id={id}
          name={name}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={error?.fields.some((f) => f.field === name) || undefined}
          onInput={(e) => onValue(e.currentTarget.value)}
          // Preact types each input `type` apart; these attributes suit every type this component offers.
          {...(rest as Record<string, unknown>)}
        />
      )}
    </Field>
  );
}

export function Select<T extends string>({
  label,
  name,
  value,
  options,
  onValue,
  error,
}: {
  label: string;
  name?: string;
  value: T;
  options: Array<{ value: T; label: string }>;
  onValue: (value: T) => void;
  error?: ApiFailure | null;
}) {
  return (
    <Field label={label} name={name} error={error}>
      {(id, describedBy) => (
        <select id={id} name={name} value={value} aria-describedby={describedBy} onChange={(e) => onValue(e.currentTarget.value as T)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A submit button that says what is happening while its request runs. */
export function Submit({ pending, children, busy = 'Working…' }: { pending: boolean; children: preact.ComponentChildren; busy?: string }) {
  return (
    <button type="submit" class="primary" disabled={pending} aria-busy={pending}>
      {pending ? busy : children}
    </button>
  );
}

/** A settings form's end: the API's refusal, Save, and "Saved." from a success until the next edit (`useSave`). */
export function SaveActions({ save }: { save: { pending: boolean; error: ApiFailure | null; saved: boolean } }) {
  return (
    <>
      <ErrorNote error={save.error} />
      <div class="actions">
        <Submit pending={save.pending} busy="Saving…">
          Save
        </Submit>
        {save.saved ? <span role="status">Saved.</span> : null}
      </div>
    </>
  );
}

/** A form that never reloads the page. */
export function Form({
  onSubmit,
  children,
  class: className,
}: {
  onSubmit: () => void;
  children: preact.ComponentChildren;
  class?: string;
}) {
  return (
    <form
      class={className ?? 'form'}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
