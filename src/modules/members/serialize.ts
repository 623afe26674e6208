import { isActiveMember, type ProjectMember } from '../projects/entities';
import type { User } from '../users/entities';
import type { MemberResponse } from './schemas';

export const serializeMember = (member: ProjectMember, user: User): MemberResponse => ({
  userId: user.id,
  email: user.email,
  role: member.role,
  emailVerified: user.emailVerified,
  pending: !isActiveMember(member, user),
  joinedAt: member.createdAt.toISOString(),
});
