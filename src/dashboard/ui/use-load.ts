import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiFailure | null;
  loading: boolean;
  reload: () => Promise<void>;
}

const asFailure = (err: unknown) => (err instanceof ApiFailure ? err : new ApiFailure(0, 'ERROR', String(err)));

/**
 * Runs `load` now and whenever `deps` change; an answer that arrives after a newer request started is
 * dropped, so typing in a search box never shows an older page.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiFailure | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const run = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    try {
      const value = await load();
      if (ticket !== latest.current) return;
      setData(value);
      setError(null);
    } catch (err) {
      if (ticket === latest.current) setError(asFailure(err));
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void run();
  }, [run]);
  return { data, error, loading, reload: run };
}

/**
 * Calls `reload` whenever this window gets the focus back: what the person made in another tab (a template the
 * step panel sent them to write) is then on the page without a reload.
 */
export function useReloadOnFocus(reload: () => Promise<void>): void {
  useEffect(() => {
    const again = () => void reload();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [reload]);
}

/**
 * Calls `load` again `ms` after each answer while the page is shown and `active(data)` holds (live counts,
 * progress, a domain still pending, a job still running): a slow answer never has a second request queued
 * behind it.
 */
export function usePoll<T>(
  load: () => Promise<T>,
  ms: number,
  deps: unknown[],
  active: (data: T | undefined) => boolean = () => true,
): Loaded<T> {
  const loaded = useLoad(load, deps);
  const on = active(loaded.data);
  useEffect(() => {
    if (!on || loaded.loading) return;
    const timer = setTimeout(() => void loaded.reload(), ms);
    return () => clearTimeout(timer);
  }, [on, loaded.loading, loaded.reload, ms]);
  return loaded;
}

/** Runs an action, keeping its pending state and failure for the button and the error note. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiFailure | null>(null);
  const run = async (...args: A): Promise<T | undefined> => {
    setPending(true);
    setError(null);
    try {
      return await action(...args);
    } catch (err) {
      setError(asFailure(err));
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, clear: () => setError(null) };
}

/**
 * A settings form's save: `useAction`'s state, and `saved` from a success until the next edit made through
 * `edited(setter)` ("Saved." spoke of the fields as they were).
 */
export function useSave(save: () => Promise<void>) {
  const [saved, setSaved] = useState(false);
  const action = useAction(async () => {
    await save();
    setSaved(true);
  });
  const edited =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSaved(false);
    };
  return { ...action, saved, edited };
}
