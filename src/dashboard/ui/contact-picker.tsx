import { useState } from 'preact/hooks';
import { api, call } from '../api/client';
import { ErrorNote } from './feedback';
import { Field } from './form';
import { useDebounced } from './use-debounced';
import { useLoad } from './use-load';
import './contact-picker.css';

const SHOWN = 10;

export interface ChosenContact {
  id: string;
  email: string;
}

/**
 * Chooses one contact of the project: a search by email (on the server) and the matches to choose from. The
 * chosen contact stays in the choices while another search runs.
 */
export function ContactPicker({
  label,
  noneLabel,
  chosen,
  onChoose,
}: {
  label: string;
  noneLabel: string;
  chosen: ChosenContact | null;
  onChoose: (contact: ChosenContact | null) => void;
}) {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim());
  const found = useLoad(() => call(api.GET('/contacts', { params: { query: { limit: SHOWN, search: query || undefined } } })), [query]);
  const matches = found.data?.data ?? [];
  const contacts = chosen && !matches.some((c) => c.id === chosen.id) ? [chosen, ...matches] : matches;
  return (
    <div class="contact-picker">
      <Field label="Find a contact" hint="Type part of an email address">
        {(id, describedBy) => (
          <input id={id} type="search" value={search} aria-describedby={describedBy} onInput={(e) => setSearch(e.currentTarget.value)} />
        )}
      </Field>
      <Field label={label}>
        {(id) => (
          <select id={id} value={chosen?.id ?? ''} onChange={(e) => onChoose(contacts.find((c) => c.id === e.currentTarget.value) ?? null)}>
            <option value="">{noneLabel}</option>
            {contacts.map((c) => (
              <option key={c.id} value={c.id}>
                {c.email}
              </option>
            ))}
          </select>
        )}
      </Field>
      {found.data && matches.length === 0 ? <p class="muted">No contact matches “{query}”.</p> : null}
      <ErrorNote error={found.error} />
    </div>
  );
}
