import { useEffect, useState } from 'preact/hooks';

/**
 * Pages live after `#` (`/app/#/contacts/…`), so the server answers one path for every page
 * (docs/dashboard.md "Serving").
 */
export interface Route {
  path: string;
  query: URLSearchParams;
}

function current(): Route {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = raw.split('?');
  return { path, query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export const href = (path: string, query?: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ''}`;
};

export function navigate(path: string, query?: Record<string, string | undefined>): void {
  location.hash = href(path, query);
}

/** Matches `/contacts/:id` against a path; returns the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}
