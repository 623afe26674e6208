import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { ProjectIdParams } from '../projects/schemas';
import { requireMembership } from '../projects/service';
import { SecurityResponse } from './schemas';
import { securityState } from './service';

/** One view under both of its paths (docs/security.md). */
export function securityRoutes(deps: Deps): RouteDef[] {
  return ['/projects/{id}/security', '/users/@me/projects/{id}/security'].map((path) =>
    defineRoute({
      method: 'get',
      path,
      tag: 'Security',
      summary: 'Bounce and complaint rates over the reputation window, their levels, and recent suspensions (any member)',
      auth: 'session',
      params: ProjectIdParams,
      responses: {
        200: { description: 'Security state', schema: SecurityResponse },
        401: { description: 'No session' },
        403: { description: 'Not a member' },
        404: { description: 'No such project' },
      },
      handler: async (ctx, { params }) => {
        const { project } = await requireMembership(ctx.state.em, params.id, requireUser(ctx).id);
        ctx.body = await securityState(ctx.state.em, deps.config, project);
      },
    }),
  );
}
