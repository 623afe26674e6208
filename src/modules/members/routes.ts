import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ProjectIdParams } from '../projects/schemas';
import { requireMembership } from '../projects/service';
import { InviteBody, MemberParams, MemberResponse, RemovedResponse, RoleBody } from './schemas';
import { changeRole, inviteMember, listMembers, removeMember } from './service';

/** Team management; the role rules are in docs/roles.md. */
export function memberRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/projects/{id}/members',
      tag: 'Members',
      summary: 'Members of the project with their roles (any member may list)',
      auth: 'session',
      params: ProjectIdParams,
      responses: {
        200: { description: 'Members, earliest first', schema: z.array(MemberResponse) },
        403: { description: 'Not a member' },
        404: { description: 'No such project' },
      },
      handler: async (ctx, { params }) => {
        await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = await listMembers(ctx.state.em, params.id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/projects/{id}/members',
      tag: 'Members',
      summary:
        'Invite by email (OWNER, ADMIN); the membership grants access once the address is proven: a verified account at once, else through the mailed set-password or verification link',
      auth: 'session',
      params: ProjectIdParams,
      body: InviteBody,
      responses: {
        201: {
          description: 'The new member (`pending` until the address is proven); the invitation email was sent',
          schema: MemberResponse,
        },
        403: { description: 'Not a member, or the role does not allow this invitation' },
        404: { description: 'No such project' },
        409: { description: 'Already a member' },
        503: { description: 'MAIL_UNAVAILABLE: the invitation could not be sent; nothing was changed' },
      },
      handler: async (ctx, { params, body }) => {
        const member = await inviteMember(deps, ctx.state.em, {
          projectId: params.id,
          inviter: requireUser(ctx),
          email: body.email,
          role: body.role,
        });
        ctx.status = 201;
        ctx.body = member;
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/projects/{id}/members/{userId}',
      tag: 'Members',
      summary: "Change a member's role (OWNER, ADMIN; only an OWNER touches the OWNER role)",
      auth: 'session',
      params: MemberParams,
      body: RoleBody,
      responses: {
        200: { description: 'The member with the new role', schema: MemberResponse },
        403: { description: 'Not a member, or the role does not allow this change' },
        404: { description: 'No such project or member' },
        409: { description: 'The change would leave the project without an OWNER' },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = await changeRole(ctx.state.em, {
          projectId: params.id,
          actorId: requireUser(ctx).id,
          userId: params.userId,
          role: body.role,
        });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/projects/{id}/members/{userId}',
      tag: 'Members',
      summary: 'Remove a member (OWNER, ADMIN), or leave the project (any member, own user ID)',
      auth: 'session',
      params: MemberParams,
      responses: {
        200: { description: 'Removed', schema: RemovedResponse },
        403: { description: 'Not a member, or the role does not allow this removal' },
        404: { description: 'No such project or member' },
        409: { description: 'The removal would leave the project without an OWNER' },
      },
      handler: async (ctx, { params }) => {
        await removeMember(ctx.state.em, { projectId: params.id, actorId: requireUser(ctx).id, userId: params.userId });
        ctx.body = { success: true, message: 'Member removed' };
      },
    }),
  ];
}
