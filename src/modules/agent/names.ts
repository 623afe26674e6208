import type { Method, RouteDef } from '../../http/route';

/**
 * The name of a route as an MCP tool (`contacts_list`) and a CLI command (`postwire contacts list`), derived from
 * its method and path (docs/mcp.md "Tools"): the group is the first word of the path, the action the words
 * after it (parameters left out) with a verb for the method. A route's `agent.name` overrides it.
 */
export interface OperationName {
  /** Lower case, words of the path kept as they are: `contacts`, `webhook-endpoints`. */
  group: string;
  /** One or more words: `list`, `executions`, `get`. */
  action: string[];
}

type Declared = Pick<RouteDef, 'method' | 'path' | 'agent'>;

const isParam = (segment: string) => segment.startsWith('{');
const segmentsOf = (path: string) => path.split('/').filter((s) => s && s !== 'v1');
const word = (segment: string) => segment.replace(/[^a-zA-Z0-9-]+/g, '-').toLowerCase();

/** `/x` is a collection when it is listed (a GET on it) or holds items that are changed one by one (`/x/{id}`). */
function isCollection(path: string, routes: readonly Declared[]): boolean {
  const item = new RegExp(`^${path.replace(/[{}]/g, '\\$&')}/\\{[^/]+\\}$`);
  return routes.some((r) => (r.path === path && r.method === 'get') || (item.test(r.path) && r.method !== 'get'));
}

function verb(route: Declared, routes: readonly Declared[], rest: string[]): string | undefined {
  const last = segmentsOf(route.path).at(-1) ?? '';
  const onItem = isParam(last);
  const has = (method: Method) => routes.some((r) => r.path === route.path && r.method === method);
  switch (route.method) {
    case 'get':
      if (onItem) return 'get';
      if (rest.length === 0) return 'list';
      return has('post') ? 'list' : undefined;
    case 'post':
      if (onItem) return undefined;
      if (rest.length === 0) return 'create';
      return isCollection(route.path, routes) ? 'create' : undefined;
    case 'patch':
      return 'update';
    case 'put':
      return has('patch') ? 'replace' : 'update';
    case 'delete':
      return 'delete';
  }
}

export function operationName(route: Declared, routes: readonly Declared[]): OperationName {
  const override = route.agent?.name;
  if (override) {
    const [group, ...action] = override.split('_');
    return { group: group!, action };
  }
  const words = segmentsOf(route.path)
    .filter((s) => !isParam(s))
    .map(word);
  const [group = 'root', ...rest] = words;
  const action = [...rest, verb(route, routes, rest)].filter((w): w is string => Boolean(w));
  return { group, action: action.length ? action : [route.method] };
}

export const toolName = ({ group, action }: OperationName) => [group, ...action].join('_').replace(/-/g, '_');
