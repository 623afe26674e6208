import type { Deps } from '../../deps';
import { requireUser } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import { requestPasswordReset, requestVerification, resetPassword, verifyEmail } from './account';
import { ActionResult, OAuthConfigResponse, PasswordResetRequestBody, ResetPasswordBody, UserResponse, VerifyEmailBody } from './schemas';
import { serializeUser } from './serialize';

/** Email verification, password reset and login options: docs/account-emails.md. */
export function accountRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/auth/oauth-config',
      tag: 'Auth',
      summary: 'OAuth providers users can log in with (none on this deployment)',
      auth: 'none',
      responses: { 200: { description: 'Configured providers', schema: OAuthConfigResponse } },
      handler: (ctx) => {
        ctx.body = { providers: [] };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/request-verification',
      tag: 'Auth',
      summary: 'Send the logged-in user a new email-verification link',
      auth: 'session',
      responses: {
        200: { description: 'Sent, or the address was already verified', schema: ActionResult },
        429: { description: 'A link was sent less than a minute ago; see details.retryAfter' },
        503: { description: 'MAIL_UNAVAILABLE: the mail server refused; nothing was stored' },
      },
      handler: async (ctx) => {
        const sent = await requestVerification(deps, ctx.state.em, requireUser(ctx).id);
        ctx.body = { success: true, message: sent ? 'Verification email sent' : 'Email already verified' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/verify-email',
      tag: 'Auth',
      summary: "Verify an email address with the token of an emailed link, within a session of the address's own account",
      auth: 'optional-session',
      body: VerifyEmailBody,
      responses: {
        200: { description: 'The verified user', schema: UserResponse },
        400: { description: 'INVALID_TOKEN: unknown, expired or already used' },
        403: {
          description:
            "FORBIDDEN: no session of the token's own account; nothing changed. Set a password with the same token instead (POST /auth/reset-password)",
        },
      },
      handler: async (ctx, { body }) => {
        ctx.body = serializeUser(await verifyEmail(ctx.state.em, body.token, ctx.state.user?.id));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/request-password-reset',
      tag: 'Auth',
      summary: 'Email a password-reset link; answers the same whether or not the address has an account',
      auth: 'none',
      body: PasswordResetRequestBody,
      responses: { 200: { description: 'Accepted', schema: ActionResult } },
      handler: async (ctx, { body }) => {
        await requestPasswordReset(deps, ctx.state.em, body.email);
        ctx.body = { success: true, message: 'If an account exists for this address, a reset link has been sent' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/reset-password',
      tag: 'Auth',
      summary: 'Set a new password with the token of a reset, verification or invitation link; proves the address and ends every session',
      auth: 'none',
      body: ResetPasswordBody,
      responses: {
        200: { description: 'Password changed', schema: ActionResult },
        400: { description: 'INVALID_TOKEN: unknown, expired or already used' },
      },
      handler: async (ctx, { body }) => {
        await resetPassword(ctx.state.em, body.token, body.password);
        ctx.body = { success: true, message: 'Password changed; log in with the new password' };
      },
    }),
  ];
}
