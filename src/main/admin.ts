/**
 * `npm run admin -- <command>` (in the image: `postwire admin <command>`): the operators' surface of
 * docs/operators.md from a shell, over the API's /admin endpoints with ADMIN_TOKEN, so that a suspension made
 * here is the same as one made over HTTP (history, audit, owners' emails, held mail released once).
 *
 *   list [--search <text>] [--disabled true|false] [--json]   every project, with its figures
 *   suspend <projectId> <reason…>                             suspend, with the reason the owners are told
 *   reinstate <projectId> [<reason…>]                         reinstate; the held mail goes
 *   audit [--limit <n>] [--json]                              every suspension and reinstatement, newest first
 *
 * The API is reached at PUBLIC_URL, or `--url`. Exits 1 with the API's message when it refuses.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { configSchema } from '../config';

const USAGE = `Usage: npm run admin -- <command> [options]
  list [--search <text>] [--disabled true|false] [--json]
  suspend <projectId> <reason…>
  reinstate <projectId> [<reason…>]
  audit [--limit <n>] [--json]
Options: --url <API base URL> (default PUBLIC_URL). ADMIN_TOKEN must be set.`;

class Refused extends Error {}

interface Page<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
}

interface ProjectItem {
  id: string;
  name: string;
  disabled: boolean;
  disabledReason: string | null;
  owners: string[];
  sent: number;
  bounceRate: number;
  complaintRate: number;
  levels: { bounce: string; complaint: string };
}

interface AuditItem {
  action: string;
  projectId: string;
  reason: string | null;
  by: string;
  at: string;
}

function client(base: string, token: string) {
  return async <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> => {
    const res = await fetch(new URL(path, base), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json().catch(() => null)) as { error?: { message?: string; errors?: Array<{ message: string }> } } | null;
    if (!res.ok) {
      const detail = json?.error?.errors?.map((e) => e.message).join('; ');
      throw new Refused(`${res.status} ${json?.error?.message ?? res.statusText}${detail ? ` (${detail})` : ''}`);
    }
    return json as T;
  };
}

/** Every page of a cursor list, up to `limit` items. */
async function all<T>(get: (cursor: string | null) => Promise<Page<T>>, limit = Infinity): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await get(cursor);
    items.push(...page.data);
    cursor = page.hasMore ? page.cursor : null;
  } while (cursor && items.length < limit);
  return items.slice(0, limit);
}

const table = (rows: string[][]) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

const projectLine = (p: ProjectItem) => [
  p.id,
  p.name,
  p.disabled ? 'SUSPENDED' : 'active',
  String(p.sent),
  `${p.bounceRate}% ${p.levels.bounce}`,
  `${p.complaintRate}% ${p.levels.complaint}`,
  p.owners.join(', '),
  p.disabledReason ?? '',
];

async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      search: { type: 'string' },
      disabled: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const settings = configSchema
    .pick({ PUBLIC_URL: true, ADMIN_TOKEN: true })
    .extend({ ADMIN_TOKEN: z.string().min(1, 'ADMIN_TOKEN must be set') })
    .safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!settings.success) throw new Refused(settings.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  const call = client(values.url ?? settings.data.PUBLIC_URL, settings.data.ADMIN_TOKEN);
  const [command, id, ...words] = positionals;
  const show = (value: unknown, text: () => string) => print(values.json ? JSON.stringify(value, null, 2) : text());

  switch (command) {
    case 'list': {
      const query = new URLSearchParams({ limit: '100' });
      if (values.search) query.set('search', values.search);
      if (values.disabled) query.set('disabled', values.disabled);
      const projects = await all<ProjectItem>((cursor) =>
        call('GET', `/admin/projects?${query.toString()}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      );
      return show(projects, () =>
        table([['ID', 'NAME', 'STATUS', 'SENT', 'BOUNCES', 'COMPLAINTS', 'OWNERS', 'REASON'], ...projects.map(projectLine)]),
      );
    }
    case 'suspend':
    case 'reinstate': {
      if (!id) throw new Refused(`${command} needs a project id\n${USAGE}`);
      const reason = words.join(' ').trim();
      if (command === 'suspend' && !reason) throw new Refused(`suspend needs a reason, which the owners are told\n${USAGE}`);
      const project = await call<ProjectItem>('POST', `/admin/projects/${encodeURIComponent(id)}/${command}`, reason ? { reason } : {});
      return show(project, () => `${command === 'suspend' ? 'Suspended' : 'Reinstated'}: ${projectLine(project).slice(0, 3).join('  ')}`);
    }
    case 'audit': {
      const limit = values.limit ? Number(values.limit) : 50;
      const entries = await all<AuditItem>(
        (cursor) => call('GET', `/admin/audit?limit=${Math.min(limit, 100)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        limit,
      );
      return show(entries, () =>
        table([['AT', 'ACTION', 'BY', 'PROJECT', 'REASON'], ...entries.map((e) => [e.at, e.action, e.by, e.projectId, e.reason ?? ''])]),
      );
    }
    default:
      throw new Refused(USAGE);
  }
}

runAdmin(process.argv.slice(2), process.env, (line) => console.log(line)).catch((err: unknown) => {
  console.error(err instanceof Refused ? err.message : err);
  process.exitCode = 1;
});
