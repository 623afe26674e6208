import { z } from 'zod';
import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ProjectName, ProjectResponse } from './schemas';
import { serializeProject } from './serialize';
import { createProject, projectsOf } from './service';

export function projectRoutes(_deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/users/@me/projects',
      tag: 'Projects',
      summary: "Projects the logged-in user is a member of, with their role",
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
  ];
}
