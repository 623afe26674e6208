import { z } from 'zod';
import { ROLES } from '../projects/entities';
import { AccountEmail } from '../users/schemas';

export const MemberRole = z.enum(ROLES);

export const MemberParams = z.object({ id: z.uuid(), userId: z.uuid() });
export const InviteBody = z.object({ email: AccountEmail, role: MemberRole.default('MEMBER') });
export const RoleBody = z.object({ role: MemberRole });

export const MemberResponse = z.object({
  userId: z.uuid(),
  email: z.email(),
  role: MemberRole,
  emailVerified: z.boolean(),
  pending: z
    .boolean()
    .describe('Invited and has not yet proven the address (from the invitation link or by verifying it): no access until then'),
  joinedAt: z.iso.datetime(),
});
export type MemberResponse = z.infer<typeof MemberResponse>;

export const RemovedResponse = z.object({ success: z.literal(true), message: z.string() });
