import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError, forbidden, notFound } from '../../http/errors';
import { Project, ProjectMember, type Role } from './entities';
import { issueKeys } from './keys';
import { newId } from '../../db/columns';

export async function createProject(em: EntityManager, ownerId: string, name: string): Promise<{ project: Project; secret: string }> {
  const keys = { publicKey: '', publicKeyDigest: '', secretKeyDigest: '', secretKeyHint: '' };
  const secret = issueKeys(keys);
  const project = em.create(Project, { id: newId(), name, disabled: false, billingLimits: {}, ...keys });
  em.create(ProjectMember, { projectId: project.id, userId: ownerId, role: 'OWNER' });
  await em.flush();
  return { project, secret };
}

export async function projectsOf(em: EntityManager, userId: string): Promise<Array<{ project: Project; role: Role }>> {
  const memberships = await em.find(ProjectMember, { userId }, { orderBy: { createdAt: 'asc' } });
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
  if (!member) throw forbidden('You are not a member of this project');
  if (roles && !roles.includes(member.role)) {
    throw new ApiError(403, 'FORBIDDEN', `This action needs the role ${roles.join(' or ')}; you are ${member.role}`);
  }
  return { project, member };
}
