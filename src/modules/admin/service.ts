import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern, countRows, keysetPage, timestampKey } from '../../db/keyset';
import { decodeCursor, encodeCursor } from '../../http/cursor';
import { ownerEmailsOf } from '../projects/owners';
import { figuresOfProjects, type ReputationSettings } from '../reputation/figures';
import type { AdminProject, AdminProjectsQuery, AuditEntry } from './schemas';

interface ProjectRow {
  id: string;
  name: string;
  disabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
}

const PROJECTS_ORDERING = 'createdAt';

/** Every project of the deployment, newest first, with its owners and reputation figures. */
export async function listProjects(em: EntityManager, settings: ReputationSettings, q: AdminProjectsQuery) {
  const after = q.cursor ? decodeCursor(q.cursor, PROJECTS_ORDERING) : undefined;
  const where = ['true'];
  const params: unknown[] = [];
  if (q.search) {
    where.push(`(p."name" ilike ? or p."id"::text ilike ?)`);
    params.push(containsPattern(q.search), containsPattern(q.search));
  }
  if (q.disabled) where.push(q.disabled === 'true' ? 'p."disabled"' : 'not p."disabled"');
  const [page, total] = await Promise.all([
    keysetPage<ProjectRow>(em, {
      select: 'p."id", p."name", p."disabled", p."disabled_reason", p."created_at"',
      from: 'projects p',
      where,
      params,
      key: timestampKey('p."created_at"'),
      idColumn: 'p."id"',
      dir: 'desc',
      limit: q.limit,
      after,
    }),
    after ? 0 : countRows(em, 'projects p', where, params),
  ]);
  return {
    data: await adminViews(em, settings, page.rows),
    cursor: page.next ? encodeCursor(PROJECTS_ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}

/** One project as the operators see it; null when there is none. */
export async function adminProject(em: EntityManager, settings: ReputationSettings, id: string): Promise<AdminProject | null> {
  const rows = await em.execute<ProjectRow[]>(
    `select "id", "name", "disabled", "disabled_reason", "created_at" from projects where "id" = ?`,
    [id],
  );
  const [view] = await adminViews(em, settings, rows);
  return view ?? null;
}

async function adminViews(em: EntityManager, settings: ReputationSettings, rows: ProjectRow[]): Promise<AdminProject[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [figures, ownersOf] = await Promise.all([figuresOfProjects(em, settings, ids), ownerEmailsOf(em, ids)]);
  const figuresOf = new Map(figures.map((f) => [f.projectId, f]));
  return rows.map((r) => {
    const f = figuresOf.get(r.id)!;
    return {
      id: r.id,
      name: r.name,
      disabled: r.disabled,
      disabledReason: r.disabled ? r.disabled_reason : null,
      createdAt: new Date(r.created_at).toISOString(),
      owners: ownersOf.get(r.id) ?? [],
      sent: f.sent,
      bounceRate: f.bounceRate,
      complaintRate: f.complaintRate,
      levels: f.levels,
    };
  });
}

interface AuditRow {
  id: string;
  action: AuditEntry['action'];
  project_id: string;
  reason: string | null;
  by: AuditEntry['by'];
  at: Date;
}

const AUDIT_ORDERING = 'at';

/** Every suspension and reinstatement, newest first. */
export async function listAudit(em: EntityManager, q: { cursor?: string; limit: number }) {
  const after = q.cursor ? decodeCursor(q.cursor, AUDIT_ORDERING) : undefined;
  const [page, total] = await Promise.all([
    keysetPage<AuditRow>(em, {
      select: 'a."id", a."action", a."project_id", a."reason", a."by", a."at"',
      from: 'project_audit a',
      where: ['true'],
      params: [],
      key: timestampKey('a."at"'),
      idColumn: 'a."id"',
      dir: 'desc',
      limit: q.limit,
      after,
    }),
    after ? 0 : countRows(em, 'project_audit a', ['true'], []),
  ]);
  return {
    data: page.rows.map((r): AuditEntry => ({
      id: r.id,
      action: r.action,
      projectId: r.project_id,
      reason: r.reason,
      by: r.by,
      at: new Date(r.at).toISOString(),
    })),
    cursor: page.next ? encodeCursor(AUDIT_ORDERING, page.next) : null,
    hasMore: page.next !== null,
    total,
  };
}
