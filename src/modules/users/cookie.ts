import type { AppContext } from '../../http/context';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '../../auth/session';

export function setSessionCookie(ctx: AppContext, token: string): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: ctx.secure,
    maxAge: SESSION_TTL_SECONDS * 1000,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: AppContext): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', path: '/', secure: ctx.secure, maxAge: 0 });
}
