import { useEffect } from 'preact/hooks';
import { useLoad, type Loaded } from './use-load';

/**
 * Like `usePoll`, but only while `active(data)` holds (a domain still pending, a campaign still sending), and
 * the next request starts `ms` after the previous answer: a slow answer never has a second one queued behind it.
 */
export function usePollWhile<T>(load: () => Promise<T>, ms: number, active: (data: T | undefined) => boolean, deps: unknown[]): Loaded<T> {
  const loaded = useLoad(load, deps);
  const on = active(loaded.data);
  useEffect(() => {
    if (!on || loaded.loading) return;
    const timer = setTimeout(() => void loaded.reload(), ms);
    return () => clearTimeout(timer);
  }, [on, loaded.loading, loaded.reload, ms]);
  return loaded;
}
