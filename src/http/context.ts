import type { ParameterizedContext } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Project, Role } from '../modules/projects/entities';
import type { User } from '../modules/users/entities';

export interface AppState {
  requestId: string;
  /** A fork of the ORM's entity manager, one per request. */
  em: EntityManager;
  project?: Project;
  user?: User;
  /** The caller's role when they reached a project with a session cookie. */
  role?: Role;
}

export type AppContext = ParameterizedContext<AppState>;

export function requireProject(ctx: AppContext): Project {
  if (!ctx.state.project) throw new Error('route reached without an authenticated project');
  return ctx.state.project;
}

export function requireUser(ctx: AppContext): User {
  if (!ctx.state.user) throw new Error('route reached without an authenticated user');
  return ctx.state.user;
}
