import { z } from 'zod';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { Credentials, SessionResponse, UserResponse } from './schemas';
import { serializeUser } from './serialize';
import { login, signup } from './service';
import { LoginThrottle } from './login-throttle';
import { clearSessionCookie, setSessionCookie } from './cookie';
import { sendSignupVerification } from './account';
import { accountRoutes } from './account-routes';
import { SESSION_COOKIE } from '../../auth/session';
import { endSession } from '../../auth/ended-sessions';

export function userRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/signup',
      tag: 'Auth',
      summary: 'Create a dashboard user, log them in and email them a verification link',
      auth: 'none',
      body: Credentials,
      responses: {
        200: { description: 'The new user; a session cookie is set', schema: UserResponse },
        403: { description: 'Signups are disabled on this deployment' },
        409: { description: 'The email already has an account' },
      },
      handler: async (ctx, { body }) => {
        if (deps.config.DISABLE_SIGNUPS) throw new ApiError(403, 'SIGNUPS_DISABLED', 'Signups are disabled');
        const user = await signup(ctx.state.em, body.email, body.password);
        await sendSignupVerification(deps, ctx.state.em, user);
        setSessionCookie(ctx, await deps.sessions.sign(user));
        ctx.body = serializeUser(user);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/login',
      tag: 'Auth',
      summary: 'Log in with email and password; sets the session cookie',
      auth: 'none',
      body: Credentials,
      responses: {
        200: { description: 'The user; a session cookie is set', schema: UserResponse },
        401: { description: 'INVALID_CREDENTIALS' },
        429: { description: 'Too many failed logins for this address or from this client; see Retry-After (docs/security.md)' },
      },
      handler: async (ctx, { body }) => {
        const throttle = new LoginThrottle(ctx.state.em, deps.logger, body.email, ctx.ip);
        await throttle.admit();
        const user = await login(ctx.state.em, body.email, body.password);
        await throttle.succeeded();
        setSessionCookie(ctx, await deps.sessions.sign(user));
        ctx.body = serializeUser(user);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/logout',
      tag: 'Auth',
      summary: 'End the session on the server and clear its cookie; the same cookie is refused afterwards',
      auth: 'none',
      responses: { 200: { description: 'Logged out', schema: z.object({ success: z.literal(true) }) } },
      handler: async (ctx) => {
        const claims = await deps.sessions.verify(ctx.cookies.get(SESSION_COOKIE) ?? '');
        if (claims) await endSession(ctx.state.em, claims);
        clearSessionCookie(ctx);
        ctx.body = { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/session',
      tag: 'Auth',
      summary:
        'Who is logged in: the user of a valid session cookie, or null without one (never a 401: a page asks it before anyone logged in)',
      auth: 'optional-session',
      responses: { 200: { description: 'The session, or null', schema: SessionResponse } },
      handler: (ctx) => {
        ctx.body = { user: ctx.state.user ? serializeUser(ctx.state.user) : null };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/@me',
      tag: 'Users',
      summary: 'The logged-in user',
      auth: 'session',
      responses: { 200: { description: 'Current user', schema: UserResponse } },
      handler: (ctx) => {
        ctx.body = serializeUser(requireUser(ctx));
      },
    }),
    ...accountRoutes(deps),
  ];
}
