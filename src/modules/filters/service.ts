import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../contacts/entities';
import { loadCatalog } from './catalog';
import { evaluateFilter } from './evaluate';
import { loadFilterInputs } from './inputs';
import { resolveFilter, type ResolveOptions, type ResolvedTree } from './resolve';
import { compileFilter } from './sql';

/** Checks a tree against what the project knows; throws FilterError. Strict for trees being saved. */
export async function resolveForProject(
  em: EntityManager,
  projectId: string,
  tree: unknown,
  options: ResolveOptions = {},
): Promise<ResolvedTree> {
  return resolveFilter(tree, await loadCatalog(em, projectId), options);
}

/** The SQL face as a query: `select <columns> from contacts c` restricted to the project and the tree. */
export function matchingContactsSql(projectId: string, tree: ResolvedTree, now: Date, columns: string) {
  const condition = compileFilter(tree, now);
  return {
    sql: `select ${columns} from contacts c where c.project_id = ? and (${condition.sql})`,
    params: [projectId, ...condition.params],
  };
}

export async function countMatching(em: EntityManager, projectId: string, tree: ResolvedTree, now = new Date()): Promise<number> {
  const q = matchingContactsSql(projectId, tree, now, 'count(*)::int as count');
  const [row] = await em.execute<Array<{ count: number }>>(q.sql, q.params);
  return row?.count ?? 0;
}

/** One page of matching contacts, newest first. */
export async function matchingPage(
  em: EntityManager,
  projectId: string,
  tree: ResolvedTree,
  page: { offset: number; limit: number },
  now = new Date(),
): Promise<Contact[]> {
  const q = matchingContactsSql(projectId, tree, now, 'c.id');
  const rows = await em.execute<Array<{ id: string }>>(`${q.sql} order by c.created_at desc, c.id desc limit ? offset ?`, [
    ...q.params,
    page.limit,
    page.offset,
  ]);
  const contacts = await em.find(Contact, { id: { $in: rows.map((r) => r.id) } });
  const byId = new Map(contacts.map((c) => [c.id, c]));
  return rows.flatMap((r) => byId.get(r.id) ?? []);
}

/**
 * Whether one contact matches a stored tree, evaluated in memory: what a CONDITION step asks. `context` is
 * the execution's context, which `event.<key>` value operators read.
 */
export async function contactMatches(
  em: EntityManager,
  projectId: string,
  contactId: string,
  tree: unknown,
  options: { context?: Record<string, unknown>; now?: Date } = {},
): Promise<boolean> {
  const resolved = await resolveForProject(em, projectId, tree, { context: true });
  const inputs = await loadFilterInputs(em, projectId, contactId, resolved, options.context ?? {});
  return inputs !== null && evaluateFilter(resolved, inputs, options.now ?? new Date());
}
