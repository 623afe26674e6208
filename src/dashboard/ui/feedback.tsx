import type { IconNode } from 'lucide';
import type { ApiFailure } from '../api/client';
import { count } from './format';
import { CircleAlert, CircleCheck, Icon, Info, TriangleAlert } from './icons';

/** The API's own message and suggestion, read out by screen readers when it appears. */
export function ErrorNote({ error }: { error: ApiFailure | null }) {
  if (!error) return null;
  return (
    <div class="error-note" role="alert">
      <Icon icon={CircleAlert} />
      <div class="note-body">
        <strong>{error.message}</strong>
        {error.suggestion ? <p>{error.suggestion}</p> : null}
        {error.fields.length > 0 ? (
          <ul>
            {error.fields.map((f) => (
              <li key={f.field}>
                <code>{f.field}</code>: {f.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

const NOTICE_ICONS: Record<'info' | 'warn' | 'good', IconNode> = { info: Info, warn: TriangleAlert, good: CircleCheck };

/** A note in the page's flow: information, a warning that is not an error, or a success. */
export function Notice({
  tone = 'info',
  role,
  children,
}: {
  tone?: 'info' | 'warn' | 'good';
  role?: 'status' | 'note';
  children: preact.ComponentChildren;
}) {
  return (
    <div class={`notice${tone === 'info' ? '' : ` ${tone}`}`} role={role}>
      <Icon icon={NOTICE_ICONS[tone]} />
      <div class="note-body">{children}</div>
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status">
      {what}…
    </p>
  );
}

/**
 * What `useLoad` loads, in its three states: the API's refusal, "Loading…" (`what`) until the first answer, then
 * `children` of the value (kept on show while it reloads).
 */
export function WhenLoaded<T>({
  loaded,
  what,
  children,
}: {
  loaded: { data: T | undefined; error: ApiFailure | null };
  what?: string;
  children: (data: T) => preact.ComponentChildren;
}) {
  return (
    <>
      <ErrorNote error={loaded.error} />
      {loaded.data !== undefined ? children(loaded.data) : loaded.error ? null : <Loading what={what} />}
    </>
  );
}

/** A labelled progress bar: `value` of `max` done, or with `percent` a value that already is a percentage. */
export function Progress({ value, max, label, percent = false }: { value: number; max: number; label: string; percent?: boolean }) {
  const share = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div class="progress">
      <div class="progress-label">
        <span>{label}</span>
        <span>{percent ? `${share}%` : `${count(value)} / ${count(max)} (${share}%)`}</span>
      </div>
      <progress value={value} max={Math.max(max, 1)} aria-label={label} />
    </div>
  );
}

export function Empty({ children }: { children: preact.ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'good' | 'bad' | 'warn' | 'info';
  children: preact.ComponentChildren;
}) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}
