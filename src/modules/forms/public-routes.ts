import { z } from 'zod';
import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { readFormBody } from '../../http/body';
import { ApiError, notFound } from '../../http/errors';
import { defineRoute, type ResponseDoc, type RouteDef } from '../../http/route';
import { sendPage } from '../pages/html';
import { HtmlPage } from '../pages/schemas';
import { embedScript, formUrl } from './embed';
import { SignupForm } from './entities';
import { formPage, missingFormPage, refusedPage, thanksPage, tooManyPage } from './markup';
import { startToken } from './start-token';
import { submitForm, type SubmitOutcome } from './submit';

const FormParams = z.object({ formId: z.uuid() });

/** Whatever fields the form has, by their keys, plus the honeypot and the start token; all text. */
const Submission = z
  .record(z.string(), z.string())
  .describe("The form's fields by key (`email`, `data.<key>`), `website` (the honeypot, empty) and `_pw_started`");

const pageDoc = (description: string): ResponseDoc => ({ description, contentType: 'text/html', schema: HtmlPage });

/** A submission is a few fields: far below MAX_BODY_MB, which a public endpoint has no reason to take. */
const SUBMISSION_LIMIT = 64 * 1024;

const defaultThanks = (doubleOptIn: boolean, email: string) =>
  doubleOptIn
    ? `Almost there: a confirmation link is on its way to ${email}. Follow it to complete your subscription.`
    : 'You are subscribed. Thank you!';

/**
 * The public side of signup forms (docs/consent.md "Signup forms"): the hosted page, the endpoint it and the
 * snippet post to, and the snippet's script. No key: the form's id names the project, and nothing a
 * submission says can reach another.
 */
export function publicFormRoutes(deps: Deps): RouteDef[] {
  const missing = (ctx: AppContext) => sendPage(ctx, 404, missingFormPage());
  const findForm = (ctx: AppContext, id: string) => ctx.state.em.findOne(SignupForm, { id });
  const shown = (form: SignupForm) => ({
    action: formUrl(deps.config.PUBLIC_URL, form.id),
    token: startToken(deps.config, form.id, Date.now()),
  });

  function answer(ctx: AppContext, form: SignupForm, outcome: SubmitOutcome): void {
    switch (outcome.kind) {
      case 'refused':
        return sendPage(ctx, 400, refusedPage());
      case 'limited':
        ctx.set('Retry-After', String(outcome.retryAfter));
        return sendPage(ctx, 429, tooManyPage(Math.ceil(outcome.retryAfter / 60)));
      case 'again':
        return sendPage(ctx, 422, formPage(form, { ...shown(form), values: outcome.values, notice: outcome.notice }));
      case 'done':
        if (form.redirectUrl) {
          ctx.set('Cache-Control', 'no-store');
          ctx.status = 303;
          ctx.redirect(form.redirectUrl);
          return;
        }
        return sendPage(ctx, 200, thanksPage(form.successMessage ?? defaultThanks(form.doubleOptIn, outcome.email)));
    }
  }

  return [
    defineRoute({
      method: 'get',
      path: '/f/{formId}',
      tag: 'Signup forms',
      summary: 'The hosted page of a signup form',
      auth: 'none',
      params: FormParams,
      malformedPath: missing,
      responses: { 200: pageDoc('The form'), 404: pageDoc('No such form') },
      handler: async (ctx, { params }) => {
        const form = await findForm(ctx, params.formId);
        if (!form) return missing(ctx);
        sendPage(ctx, 200, formPage(form, shown(form)));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/f/{formId}',
      tag: 'Signup forms',
      summary: 'Takes a signup from the hosted page or the snippet; authenticated by the form alone',
      auth: 'none',
      params: FormParams,
      malformedPath: missing,
      // Read by the handler, so that a body that cannot be read is answered with the form's page too.
      bodyType: 'none',
      bodyContentType: 'application/x-www-form-urlencoded',
      body: Submission,
      responses: {
        200: pageDoc('Signed up (or a confirmation link mailed): the thank-you page'),
        303: {
          description: "Signed up: on to the form's redirect URL (Location)",
          contentType: 'text/html',
          schema: z.string().describe('A link to it'),
        },
        400: pageDoc('Refused as a bot (the honeypot was filled), or a body that is not UTF-8: nothing stored'),
        404: pageDoc('No such form'),
        413: pageDoc('A body over 64 KB: the form again; nothing stored'),
        422: pageDoc(
          'Not taken: the form again, with what to correct (a field, text holding NUL, or submitted too quickly); nothing stored',
        ),
        429: pageDoc('Too many signups from this client or for this address within the hour; nothing stored'),
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached (double opt-in); nothing stored' },
      },
      handler: async (ctx, { params }) => {
        const form = await findForm(ctx, params.formId);
        if (!form) return missing(ctx);
        let body: Record<string, string>;
        try {
          body = await readFormBody(ctx, SUBMISSION_LIMIT);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          return sendPage(ctx, err.status, formPage(form, { ...shown(form), notice: `The form could not be read: ${err.message}` }));
        }
        answer(ctx, form, await submitForm(ctx.state.em, deps, form, body, ctx.ip));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/f/{formId}/embed.js',
      tag: 'Signup forms',
      summary: "The snippet's script: fills in when the form was shown, for the bot check",
      auth: 'none',
      params: FormParams,
      responses: {
        200: { description: 'JavaScript', contentType: 'application/javascript', schema: z.string() },
        404: { description: 'NOT_FOUND: no such form' },
      },
      handler: async (ctx, { params }) => {
        const form = await findForm(ctx, params.formId);
        if (!form) throw notFound('Form');
        ctx.type = 'application/javascript; charset=utf-8';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = embedScript(form.id, startToken(deps.config, form.id, Date.now()));
      },
    }),
  ];
}
