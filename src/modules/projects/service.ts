import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError, forbidden, notFound } from '../../http/errors';
import { Project, ProjectMember, isActiveMember, type Role } from './entities';
import { User } from '../users/entities';
import { issueKeys } from './keys';
import { newId } from '../../db/columns';
import { PROJECT_DATA_TABLES } from './project-data';
import type { UpdateProjectBody } from './schemas';
import type { Deps } from '../../deps';
import { Domain } from '../domains/entities';
import { stopDomainVerify } from '../../temporal/domain-verify';

export async function createProject(em: EntityManager, ownerId: string, name: string): Promise<{ project: Project; secret: string }> {
  const keys = { publicKey: '', publicKeyDigest: '', secretKeyDigest: '', secretKeyHint: '' };
  const secret = issueKeys(keys);
  const project = em.create(Project, { id: newId(), name, disabled: false, billingLimits: {}, ...keys });
  em.create(ProjectMember, { projectId: project.id, userId: ownerId, role: 'OWNER' });
  await em.flush();
  return { project, secret };
}

export async function projectsOf(em: EntityManager, userId: string): Promise<Array<{ project: Project; role: Role }>> {
  const all = await em.find(ProjectMember, { userId }, { orderBy: { createdAt: 'asc' } });
  const user = all.some((m) => m.invited) ? await em.findOne(User, { id: userId }) : null;
  const memberships = all.filter((m) => !m.invited || (user && isActiveMember(m, user)));
  const projects = await em.find(Project, { id: { $in: memberships.map((m) => m.projectId) } });
  const byId = new Map(projects.map((p) => [p.id, p]));
  return memberships.flatMap((m) => {
    const project = byId.get(m.projectId);
    return project ? [{ project, role: m.role }] : [];
  });
}

/**
 * The project and the caller's membership; 404 when the project does not exist, 403 when the caller is not
 * a member or their role is not among `roles`.
 */
export async function requireMembership(
  em: EntityManager,
  projectId: string,
  userId: string,
  roles?: readonly Role[],
): Promise<{ project: Project; member: ProjectMember }> {
  const project = await em.findOne(Project, { id: projectId });
  if (!project) throw notFound('Project');
  const member = await em.findOne(ProjectMember, { projectId, userId });
  if (!member || !(await isActive(em, member))) throw forbidden('You are not a member of this project');
  if (roles && !roles.includes(member.role)) {
    throw new ApiError(403, 'FORBIDDEN', `This action needs the role ${roles.join(' or ')}; you are ${member.role}`);
  }
  return { project, member };
}

/** Loads the user only for a membership made by invitation, the only kind that can be waiting. */
async function isActive(em: EntityManager, member: ProjectMember): Promise<boolean> {
  if (!member.invited) return true;
  const user = await em.findOne(User, { id: member.userId });
  return user !== null && isActiveMember(member, user);
}

const OWNER_ONLY = ['OWNER'] as const;
const MANAGERS = ['OWNER', 'ADMIN'] as const;

/** Destroying data of a disabled project is refused, so that a suspension cannot be wiped away. */
function assertNotDisabled(project: Project, action: string): void {
  if (project.disabled) throw new ApiError(403, 'PROJECT_DISABLED', `A disabled project cannot be ${action}`);
}

export async function updateProject(em: EntityManager, projectId: string, userId: string, changes: UpdateProjectBody) {
  const { project, member } = await requireMembership(em, projectId, userId, MANAGERS);
  if (changes.name !== undefined) project.name = changes.name;
  if (changes.trackingMode !== undefined) project.trackingMode = changes.trackingMode;
  if (changes.emailRatePerSecond !== undefined) project.emailRatePerSecond = changes.emailRatePerSecond;
  if (changes.timeZone !== undefined) project.timeZone = changes.timeZone;
  if (changes.frequencyCap !== undefined) {
    project.frequencyCapMax = changes.frequencyCap?.maxEmails ?? null;
    project.frequencyCapDays = changes.frequencyCap?.windowDays ?? null;
  }
  await em.flush();
  return { project, role: member.role };
}

/** Rows of a project's table one statement deletes (with what cascades from them). */
const DELETE_CHUNK = 10_000;

/**
 * Deletes the project's data (PROJECT_DATA_TABLES) in `tx`, DELETE_CHUNK rows of a table per statement: one
 * statement for a project of a million contacts would run past STATEMENT_TIMEOUT_MS (44 s measured), so
 * could never succeed. Returns the rows deleted per table.
 */
async function deleteProjectData(tx: EntityManager, projectId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const table of PROJECT_DATA_TABLES) {
    deleted[table] = 0;
    for (;;) {
      const result = await tx.execute<{ affectedRows: number }>(
        `delete from "${table}" where ctid = any(array(select ctid from "${table}" where project_id = ? limit ?))`,
        [projectId, DELETE_CHUNK],
        'run',
      );
      deleted[table] += result.affectedRows;
      if (result.affectedRows < DELETE_CHUNK) break;
    }
  }
  return deleted;
}

/**
 * Deletes the project: its data range by range (deleteProjectData), then the project, whose deletion cascades
 * to the rest, in one transaction. The domains' check loops are stopped after.
 */
export async function deleteProject(
  deps: Pick<Deps, 'temporal' | 'logger'>,
  em: EntityManager,
  projectId: string,
  userId: string,
): Promise<void> {
  const { project } = await requireMembership(em, projectId, userId, OWNER_ONLY);
  assertNotDisabled(project, 'deleted');
  const domains = await em.find(Domain, { projectId: project.id }, { fields: ['id'] });
  await em.transactional(async (tx) => {
    await deleteProjectData(tx, project.id);
    await tx.nativeDelete(Project, { id: project.id });
  });
  await Promise.all(
    domains.map((d) =>
      stopDomainVerify(deps.temporal, d.id).catch((err: unknown) =>
        deps.logger.warn({ err, domainId: d.id }, 'could not stop the domain check; it ends at its next run'),
      ),
    ),
  );
}

/** Deletes the project's data (PROJECT_DATA_TABLES) in one transaction; returns the rows deleted per table. */
export async function resetProject(em: EntityManager, projectId: string, userId: string): Promise<Record<string, number>> {
  const { project } = await requireMembership(em, projectId, userId, OWNER_ONLY);
  assertNotDisabled(project, 'reset');
  return em.transactional((tx) => deleteProjectData(tx, project.id));
}

/** Replaces both keys; the old ones stop working with this commit. Returns the new secret in clear, once. */
export async function regenerateKeys(em: EntityManager, projectId: string, userId: string) {
  const { project, member } = await requireMembership(em, projectId, userId, OWNER_ONLY);
  const secret = issueKeys(project);
  await em.flush();
  return { project, secret, role: member.role };
}
