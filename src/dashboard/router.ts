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

/** Everyone showing the route; told at once by `navigate`, and by `hashchange` for the back button and typed addresses. */
const followers = new Set<() => void>();

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => {
      const next = current();
      setRoute((shown) => (sameRoute(shown, next) ? shown : next));
    };
    followers.add(update);
    addEventListener('hashchange', update);
    return () => {
      followers.delete(update);
      removeEventListener('hashchange', update);
    };
  }, []);
  return route;
}

const sameRoute = (a: Route, b: Route) => a.path === b.path && a.query.toString() === b.query.toString();

export const href = (path: string, query?: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const search = params.toString();
  return `#${path}${search ? `?${search}` : ''}`;
};

/**
 * Moves to a page. The route changes in the same render as the state the caller set beside it: waiting for
 * `hashchange` (a later task) would first render that state with the old route, and a controlled input that
 * reads the route would snap back for a moment.
 */
export function navigate(path: string, query?: Record<string, string | undefined>): void {
  go(href(path, query));
}

function go(hash: string): void {
  location.hash = hash;
  for (const follow of followers) follow();
}

/**
 * A plain click on a link to a page (`href="#/…"`) moves at once too. The browser's own `hashchange` comes in a
 * later task, and until then the page left behind is still the one shown: what is typed right after the click
 * went into its fields (a test filling the next page's form saw it land in the previous page's "Name").
 */
export function followLinksAtOnce(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a[href^="#/"]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.target) return;
    event.preventDefault();
    go(link.getAttribute('href')!);
  });
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
