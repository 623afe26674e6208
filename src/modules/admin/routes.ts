import type { Next } from 'koa';
import type { Config } from '../../config';
import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { ApiError, conflict, notFound } from '../../http/errors';
import { defineRoute, type RouteDef } from '../../http/route';
import { reinstateByOperator, suspendByOperator } from '../reputation/guard';
import {
  AdminProject,
  AdminProjectPage,
  AdminProjectParams,
  AdminProjectsQuery,
  AuditPage,
  AuditQuery,
  ReinstateBody,
  SuspendBody,
} from './schemas';
import { adminProject, listAudit, listProjects } from './service';

const tag = 'Admin';

const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/**
 * Without ADMIN_TOKEN the operators' surface does not exist: every /admin path, whatever the method, is the
 * 404 of a path no route serves (src/app/app.ts puts this before the router).
 */
export function hideAdminWithoutToken(config: Pick<Config, 'ADMIN_TOKEN'>) {
  return async (ctx: AppContext, next: Next) => {
    if (!config.ADMIN_TOKEN && isAdminPath(ctx.path)) {
      throw new ApiError(404, 'NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`, {
        suggestion: 'See /openapi.json for the endpoints this server offers.',
      });
    }
    await next();
  };
}

/** The operators' surface (docs/operators.md): every project with its reputation, suspend, reinstate, the audit list. */
export function adminRoutes(deps: Deps): RouteDef[] {
  const view = async (ctx: AppContext, id: string) => {
    const project = await adminProject(ctx.state.em, deps.config, id);
    if (!project) throw notFound('Project');
    return project;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/admin/projects',
      tag,
      summary: "Every project of the deployment, newest first, with its owners, reputation figures and levels (operators' token)",
      auth: 'admin',
      query: AdminProjectsQuery,
      responses: { 200: { description: 'A cursor page of projects', schema: AdminProjectPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listProjects(ctx.state.em, deps.config, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/projects/{id}/suspend',
      tag,
      summary: 'Suspend a project with a reason: its keys are refused, it sends nothing, its mail waits; the owners are emailed',
      auth: 'admin',
      params: AdminProjectParams,
      body: SuspendBody,
      responses: {
        200: { description: 'The project, suspended', schema: AdminProject },
        404: { description: 'NOT_FOUND: no such project' },
        409: { description: 'CONFLICT: the project is already suspended' },
      },
      handler: async (ctx, { params, body }) => {
        const outcome = await suspendByOperator(deps, params.id, body.reason);
        if (outcome === 'missing') throw notFound('Project');
        if (outcome === 'already') throw conflict('The project is already suspended');
        ctx.body = await view(ctx, params.id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/projects/{id}/reinstate',
      tag,
      summary: 'Reinstate a suspended project: its keys work again and the mail that waited goes, each email once; the owners are emailed',
      auth: 'admin',
      params: AdminProjectParams,
      body: ReinstateBody,
      responses: {
        200: { description: 'The project, active', schema: AdminProject },
        404: { description: 'NOT_FOUND: no such project' },
        409: { description: 'CONFLICT: the project is not suspended' },
      },
      handler: async (ctx, { params, body }) => {
        const outcome = await reinstateByOperator(deps, params.id, body.reason ?? null);
        if (outcome === 'missing') throw notFound('Project');
        if (outcome === 'active') throw conflict('The project is not suspended');
        ctx.body = await view(ctx, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/audit',
      tag,
      summary: 'Every suspension and reinstatement, automatic or by an operator, newest first',
      auth: 'admin',
      query: AuditQuery,
      responses: { 200: { description: 'A cursor page of audit entries', schema: AuditPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listAudit(ctx.state.em, query);
      },
    }),
  ];
}
