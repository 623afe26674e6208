import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { newId } from '../../db/columns';
import { conflict, notFound } from '../../http/errors';
import { invitationMail, type InvitationProof } from '../../mail/system-mail';
import { Project, ProjectMember, isActiveMember, type Role } from '../projects/entities';
import { requireMembership } from '../projects/service';
import { deliverNow } from '../users/account';
import { User } from '../users/entities';
import { TOKEN_TTL_MS, issueToken } from '../users/tokens';
import { assertCanAssign, assertCanRemove } from './policy';
import type { MemberResponse } from './schemas';
import { serializeMember } from './serialize';

type MailDeps = Pick<Deps, 'mailer' | 'config' | 'logger'>;

export async function listMembers(em: EntityManager, projectId: string): Promise<MemberResponse[]> {
  const members = await em.find(ProjectMember, { projectId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const users = new Map((await em.find(User, { id: { $in: members.map((m) => m.userId) } })).map((u) => [u.id, u]));
  return members.flatMap((m) => {
    const user = users.get(m.userId);
    return user ? [serializeMember(m, user)] : [];
  });
}

/**
 * The link that lets the invitee prove the address, which the membership waits for: a set-password link for
 * an address without a password, a verification link for an unverified account, none for a verified one.
 */
function proofLink(tx: EntityManager, user: User): InvitationProof | undefined {
  if (!user.passwordHash) return { kind: 'set-password', token: issueToken(tx, user.id, 'RESET_PASSWORD', TOKEN_TTL_MS.invitation) };
  if (!user.emailVerified) return { kind: 'verify', token: issueToken(tx, user.id, 'VERIFY_EMAIL', TOKEN_TTL_MS.invitation) };
  return undefined;
}

/**
 * Adds the address to the project, creating a user without a password when it has no account, and mails the
 * invitation with the link that proves the address. The membership grants access only once the address is
 * proven (isActiveMember). A mail failure rolls everything back.
 */
export async function inviteMember(
  deps: MailDeps,
  em: EntityManager,
  input: { projectId: string; inviter: User; email: string; role: Role },
): Promise<MemberResponse> {
  try {
    return await em.transactional(async (tx) => {
      const { project, member: own } = await requireMembership(tx, input.projectId, input.inviter.id);
      assertCanAssign(own.role, null, input.role);
      const existing = await tx.findOne(User, { email: input.email });
      if (existing && (await tx.findOne(ProjectMember, { projectId: project.id, userId: existing.id }))) {
        throw conflict(`${input.email} is already a member of this project`);
      }
      const user = existing ?? tx.create(User, { id: newId(), email: input.email, passwordHash: null, emailVerified: false });
      const member = tx.create(ProjectMember, { projectId: project.id, userId: user.id, role: input.role, invited: true });
      const proof = proofLink(tx, user);
      await tx.flush();
      const mail = invitationMail(deps.config, {
        to: user.email,
        projectName: project.name,
        invitedBy: input.inviter.email,
        role: input.role,
        proof,
      });
      await deliverNow(deps, mail);
      return serializeMember(member, user);
    });
  } catch (err) {
    // Two concurrent invitations of one address: the loser sees the same answer as a repeated invitation.
    if (err instanceof UniqueConstraintViolationException) throw conflict(`${input.email} is already a member of this project`);
    throw err;
  }
}

/**
 * The project row is locked for the rest of the transaction so that concurrent demotions or removals cannot
 * together leave the project without an OWNER.
 */
async function lockedMemberships(tx: EntityManager, projectId: string, actorId: string, userId: string) {
  await tx.findOne(Project, { id: projectId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const { member: actor } = await requireMembership(tx, projectId, actorId);
  const target = await tx.findOne(ProjectMember, { projectId, userId });
  if (!target) throw notFound('Member');
  return { actor, target };
}

/** Only an OWNER with access counts: an invited OWNER who has not proven the address could not act as one. */
async function assertAnotherOwner(tx: EntityManager, projectId: string): Promise<void> {
  const owners = await tx.find(ProjectMember, { projectId, role: 'OWNER' });
  const verified = new Set((await tx.find(User, { id: { $in: owners.map((o) => o.userId) }, emailVerified: true })).map((u) => u.id));
  if (owners.filter((o) => isActiveMember(o, { emailVerified: verified.has(o.userId) })).length < 2) {
    throw conflict('A project needs at least one OWNER; make another member OWNER first');
  }
}

export async function changeRole(
  em: EntityManager,
  input: { projectId: string; actorId: string; userId: string; role: Role },
): Promise<MemberResponse> {
  return em.transactional(async (tx) => {
    const { actor, target } = await lockedMemberships(tx, input.projectId, input.actorId, input.userId);
    assertCanAssign(actor.role, target.role, input.role);
    if (target.role === 'OWNER' && input.role !== 'OWNER') await assertAnotherOwner(tx, input.projectId);
    target.role = input.role;
    await tx.flush();
    return serializeMember(target, await tx.findOneOrFail(User, { id: target.userId }));
  });
}

export async function removeMember(em: EntityManager, input: { projectId: string; actorId: string; userId: string }): Promise<void> {
  await em.transactional(async (tx) => {
    const { actor, target } = await lockedMemberships(tx, input.projectId, input.actorId, input.userId);
    assertCanRemove(actor.role, target.role, input.actorId === input.userId);
    if (target.role === 'OWNER') await assertAnotherOwner(tx, input.projectId);
    tx.remove(target);
  });
}
