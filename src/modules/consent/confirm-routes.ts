import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { defineRoute, type ResponseDoc, type RouteDef } from '../../http/route';
import { confirmationOfToken } from '../links/confirmation';
import { subscriptionLinks } from '../links/subscription';
import { button, html, invalidLinkPage, page, sendPage } from '../pages/html';
import { confirm, confirmationState, type ConfirmationState } from './confirmations';
import { EmptyForm, HtmlPage, TokenParams } from '../pages/schemas';

const pageDoc = (description: string): ResponseDoc => ({ description, contentType: 'text/html', schema: HtmlPage });
const RESPONSES = {
  200: pageDoc('The page'),
  404: pageDoc('The link is forged or malformed, or its contact was deleted; nothing changed'),
  410: pageDoc('The link expired (a week after the signup); nothing changed'),
};

const invalidLink = (ctx: AppContext) => sendPage(ctx, 404, invalidLinkPage());

const expiredPage = () =>
  page('This link has expired', html`<p>Confirmation links work for a week. Please sign up again to get a new one.</p>`);

const askPage = (s: ConfirmationState) =>
  page(
    'Confirm your subscription',
    html`<p>Confirm that <strong>${s.email}</strong> wants to receive email from ${s.projectName}.</p>${button(null, 'Confirm')}`,
  );

const confirmedPage = (deps: Deps, s: ConfirmationState) =>
  page(
    'Subscription confirmed',
    html`<p><strong>${s.email}</strong> will receive email from ${s.projectName}.</p>
<p><a href="${subscriptionLinks(deps.config, s.contactId).manageUrl}">Choose what you receive</a></p>`,
  );

function answer(ctx: AppContext, state: ConfirmationState | null, show: (s: ConfirmationState) => string): void {
  if (!state) invalidLink(ctx);
  else if (state.status === 'EXPIRED') sendPage(ctx, 410, expiredPage());
  else sendPage(ctx, 200, show(state));
}

/**
 * The page `confirmUrl` points to (docs/consent.md "Double opt-in"). GET only asks: mail scanners follow links,
 * and a click by one must not confirm for the person. POST confirms.
 */
export function confirmRoutes(deps: Deps): RouteDef[] {
  const stateOfToken = async (ctx: AppContext, token: string) => {
    const id = confirmationOfToken(deps.config, token);
    return id ? confirmationState(ctx.state.em, id) : null;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/confirm/{token}',
      tag: 'Subscription pages',
      summary: 'Double opt-in confirmation page: asks to confirm (GET), confirms (POST)',
      auth: 'none',
      params: TokenParams,
      malformedPath: invalidLink,
      responses: RESPONSES,
      handler: async (ctx, { params }) =>
        answer(ctx, await stateOfToken(ctx, params.token), (s) => (s.status === 'CONFIRMED' ? confirmedPage(deps, s) : askPage(s))),
    }),
    defineRoute({
      method: 'post',
      path: '/confirm/{token}',
      tag: 'Subscription pages',
      summary: "Confirms the link's signup: subscribes, joins its topics and records contact.confirmed",
      auth: 'none',
      params: TokenParams,
      malformedPath: invalidLink,
      bodyType: 'form',
      body: EmptyForm,
      responses: RESPONSES,
      handler: async (ctx, { params }) => {
        const id = confirmationOfToken(deps.config, params.token);
        answer(ctx, id ? await confirm(ctx.state.em, deps, id) : null, (s) => confirmedPage(deps, s));
      },
    }),
  ];
}
