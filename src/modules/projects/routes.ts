import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import {
  ProjectActionResult,
  ProjectIdParams,
  ProjectName,
  ProjectResponse,
  ResetResponse,
  SetupStateResponse,
  updateProjectBody,
} from './schemas';
import { serializeProject } from './serialize';
import { createProject, deleteProject, projectsOf, regenerateKeys, requireMembership, resetProject, updateProject } from './service';
import { setupState } from './setup-state';

const denied = {
  401: { description: 'No session' },
  403: { description: 'Not a member, or the role does not allow this (docs/roles.md)' },
  404: { description: 'No such project' },
};

export function projectRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/users/@me/projects',
      tag: 'Projects',
      summary: 'Projects the logged-in user is a member of, with their role',
      auth: 'session',
      responses: { 200: { description: 'Projects', schema: z.array(ProjectResponse) } },
      handler: async (ctx) => {
        const list = await projectsOf(ctx.state.em, requireUser(ctx).id);
        ctx.body = list.map(({ project, role }) => serializeProject(project, { role }));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users/@me/projects',
      tag: 'Projects',
      summary: 'Create a project; the caller becomes its OWNER. The response carries the secret key in full, once.',
      auth: 'session',
      body: z.object({ name: ProjectName }),
      responses: { 201: { description: 'The new project with its keys', schema: ProjectResponse } },
      handler: async (ctx, { body }) => {
        const { project, secret } = await createProject(ctx.state.em, requireUser(ctx).id, body.name);
        ctx.status = 201;
        ctx.body = serializeProject(project, { fullSecret: secret, role: 'OWNER' });
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/users/@me/projects/{id}',
      tag: 'Projects',
      summary: 'Update project settings: name, tracking mode, sending rate (OWNER, ADMIN)',
      auth: 'session',
      params: ProjectIdParams,
      body: updateProjectBody(deps.config.MAX_EMAIL_RATE_PER_SECOND),
      responses: { 200: { description: 'The project, secret masked', schema: ProjectResponse }, ...denied },
      handler: async (ctx, { params, body }) => {
        const { project, role } = await updateProject(ctx.state.em, params.id, requireUser(ctx).id, body);
        ctx.body = serializeProject(project, { role });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/users/@me/projects/{id}',
      tag: 'Projects',
      summary: 'Delete the project with all its data, keys, members and domains (OWNER)',
      auth: 'session',
      params: ProjectIdParams,
      responses: {
        200: { description: 'Deleted', schema: ProjectActionResult },
        ...denied,
        403: { description: 'Not an OWNER, or PROJECT_DISABLED' },
      },
      handler: async (ctx, { params }) => {
        await deleteProject(deps, ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = { success: true, message: 'Project deleted' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users/@me/projects/{id}/reset',
      tag: 'Projects',
      summary: 'Irreversibly delete the project data (contacts, events, segments, ...); keeps keys, members, domains (OWNER)',
      auth: 'session',
      params: ProjectIdParams,
      responses: {
        200: { description: 'Reset', schema: ResetResponse },
        ...denied,
        403: { description: 'Not an OWNER, or PROJECT_DISABLED' },
      },
      handler: async (ctx, { params }) => {
        const deleted = await resetProject(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = { success: true, message: 'Project reset', deleted };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/users/@me/projects/{id}/regenerate-keys',
      tag: 'Projects',
      summary: 'Rotate both API keys (OWNER); the old keys stop working at once. The new secret appears in full only here.',
      auth: 'session',
      params: ProjectIdParams,
      responses: { 200: { description: 'The project with its new keys', schema: ProjectResponse }, ...denied },
      handler: async (ctx, { params }) => {
        const { project, secret, role } = await regenerateKeys(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = serializeProject(project, { fullSecret: secret, role });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/projects/{id}/setup-state',
      tag: 'Projects',
      summary: 'Onboarding checklist: domains, contacts, tracked events, sent email (any member)',
      auth: 'session',
      params: ProjectIdParams,
      responses: { 200: { description: 'Setup state', schema: SetupStateResponse }, ...denied },
      handler: async (ctx, { params }) => {
        await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = await setupState(ctx.state.em, params.id);
      },
    }),
  ];
}
