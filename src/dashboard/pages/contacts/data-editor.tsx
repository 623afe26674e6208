import { useState } from 'preact/hooks';
import { ApiFailure } from '../../api/client';
import { ErrorNote } from '../../ui/feedback';
import { Field, Form, Select, Submit } from '../../ui/form';
import { useAction } from '../../ui/use-load';

type Kind = 'text' | 'number' | 'boolean' | 'json';
interface Row {
  /** Stable across edits of the key, for rendering. */
  id: number;
  key: string;
  kind: Kind;
  text: string;
}

const KINDS: Array<{ value: Kind; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes/No' },
  { value: 'json', label: 'JSON' },
];

let nextId = 0;
function rowOf(key: string, value: unknown): Row {
  const id = nextId++;
  if (typeof value === 'string') return { id, key, kind: 'text', text: value };
  if (typeof value === 'number') return { id, key, kind: 'number', text: String(value) };
  if (typeof value === 'boolean') return { id, key, kind: 'boolean', text: String(value) };
  return { id, key, kind: 'json', text: JSON.stringify(value) };
}

const rowsOf = (data: Record<string, unknown>) => Object.entries(data).map(([k, v]) => rowOf(k, v));

/** The value a row stands for, or the reason it cannot be sent (a conversion, not a rule of the API). */
function valueOf(row: Row): { value: unknown } | { problem: string } {
  if (row.kind === 'text') return { value: row.text };
  if (row.kind === 'boolean') return { value: row.text === 'true' };
  if (row.kind === 'number') {
    const n = Number(row.text);
    return row.text.trim() !== '' && Number.isFinite(n) ? { value: n } : { problem: 'Not a number' };
  }
  try {
    return { value: JSON.parse(row.text) as unknown };
  } catch {
    return { problem: 'Not valid JSON' };
  }
}

/**
 * The contact's custom data as key/value rows. Saving sends a patch (docs/contacts.md): changed and new keys
 * with their values, removed (or renamed) keys as null. The API judges it; a refused key shows its message
 * beside the row.
 */
export function DataEditor({
  data,
  onSave,
}: {
  data: Record<string, unknown>;
  /** Sends the patch; answers the data as the API then holds it. */
  onSave: (patch: Record<string, unknown>) => Promise<Record<string, unknown>>;
}) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(data));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const patch: Record<string, unknown> = {};
    const problems = [];
    for (const key of Object.keys(data)) if (!rows.some((r) => r.key === key)) patch[key] = null;
    for (const row of rows) {
      if (row.key === '') continue;
      const v = valueOf(row);
      if ('problem' in v) problems.push({ field: `data.${row.key}`, message: v.problem });
      else patch[row.key] = v.value;
    }
    if (problems.length > 0) throw new ApiFailure(0, 'INPUT', 'Some values cannot be read', undefined, problems);
    setRows(rowsOf(await onSave(patch)));
    setSaved(true);
  });
  /** Any edit takes back "Saved.": it spoke of the rows as they were. */
  const change = (next: Row[]) => {
    setSaved(false);
    setRows(next);
  };
  const edit = (id: number, part: Partial<Row>) => change(rows.map((r) => (r.id === id ? { ...r, ...part } : r)));
  return (
    <Form onSubmit={() => void save.run()}>
      {rows.length === 0 ? <p class="muted">No custom data yet.</p> : null}
      {rows.map((row) => (
        <fieldset key={row.id} class="data-row">
          <legend class="sr-only">Field {row.key || '(new)'}</legend>
          <Field label="Key" name={`data.${row.key}`} error={save.error}>
            {(id, describedBy) => (
              <input id={id} value={row.key} aria-describedby={describedBy} onInput={(e) => edit(row.id, { key: e.currentTarget.value })} />
            )}
          </Field>
          <div class="data-value">
            <Select
              label="Type"
              value={row.kind}
              options={KINDS}
              onValue={(kind) => edit(row.id, { kind, text: kind === 'boolean' ? 'true' : row.text })}
            />
            {row.kind === 'boolean' ? (
              <Select
                label={`Value of ${row.key || 'new field'}`}
                value={row.text === 'true' ? 'true' : 'false'}
                options={[
                  { value: 'true', label: 'Yes' },
                  { value: 'false', label: 'No' },
                ]}
                onValue={(text) => edit(row.id, { text })}
              />
            ) : (
              <Field label={`Value of ${row.key || 'new field'}`}>
                {(id) => <input id={id} value={row.text} onInput={(e) => edit(row.id, { text: e.currentTarget.value })} />}
              </Field>
            )}
          </div>
          <button type="button" aria-label={`Remove ${row.key || 'new field'}`} onClick={() => change(rows.filter((r) => r.id !== row.id))}>
            Remove
          </button>
        </fieldset>
      ))}
      <div class="actions">
        <button type="button" onClick={() => change([...rows, { id: nextId++, key: '', kind: 'text', text: '' }])}>
          Add field
        </button>
        <Submit pending={save.pending} busy="Saving…">
          Save data
        </Submit>
        {saved ? <span role="status">Saved.</span> : null}
      </div>
      <ErrorNote error={save.error} />
    </Form>
  );
}
