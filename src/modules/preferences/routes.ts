import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { defineRoute, type ResponseDoc, type RouteDef } from '../../http/route';
import { HtmlPage, ManageForm, SubscribeForm, TokenParams, UnsubscribeForm } from './schemas';
import { preferencesOf, setSubscribed } from './service';
import {
  invalidLinkPage,
  managePage,
  subscribePage,
  subscribedPage,
  unsubscribePage,
  unsubscribedPage,
  type PreferenceView,
} from './views';

const HTML = 'text/html; charset=utf-8';

/**
 * The pages hold a token that acts for the contact: no caching, no framing, no referrer. Their script-free
 * policy is the one every HTML page gets (src/http/security-headers.ts).
 */
function send(ctx: AppContext, status: number, body: string): void {
  ctx.status = status;
  ctx.type = HTML;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.body = body;
}

const page = (description: string): ResponseDoc => ({ description, contentType: 'text/html', schema: HtmlPage });
const RESPONSES = {
  200: page('The page'),
  404: page('The link is forged, malformed, or its contact was deleted; nothing changed'),
};

const invalidLink = (ctx: AppContext) => send(ctx, 404, invalidLinkPage());

/** Answers the page `render` makes of the contact's state, or the invalid-link page. */
function answer(ctx: AppContext, view: PreferenceView | null, render: (v: PreferenceView) => string): void {
  if (view) send(ctx, 200, render(view));
  else invalidLink(ctx);
}

interface PageRoute {
  name: 'unsubscribe' | 'subscribe' | 'manage';
  summary: string;
  show: (v: PreferenceView) => string;
}

function showRoute(deps: Deps, { name, summary, show }: PageRoute): RouteDef {
  return defineRoute({
    method: 'get',
    path: `/${name}/{token}`,
    tag: 'Subscription pages',
    summary,
    auth: 'none',
    params: TokenParams,
    malformedPath: invalidLink,
    responses: RESPONSES,
    handler: async (ctx, { params }) => answer(ctx, await preferencesOf(ctx.state.em, deps.config, params.token), show),
  });
}

/** The subscription pages of docs/tracking.md that unsubscribeUrl, subscribeUrl and manageUrl point to. */
export function preferenceRoutes(deps: Deps): RouteDef[] {
  const { config } = deps;
  return [
    showRoute(deps, {
      name: 'unsubscribe',
      summary: 'Unsubscribe page: asks to confirm (GET), unsubscribes (POST)',
      show: unsubscribePage,
    }),
    defineRoute({
      method: 'post',
      path: '/unsubscribe/{token}',
      tag: 'Subscription pages',
      summary: "Unsubscribes the link's contact: the page's confirmation, or a mail client's RFC 8058 one-click POST",
      auth: 'none',
      params: TokenParams,
      malformedPath: invalidLink,
      bodyType: 'form',
      body: UnsubscribeForm,
      responses: RESPONSES,
      handler: async (ctx, { params, body }) => {
        const reason = body['List-Unsubscribe'] === 'One-Click' ? 'one_click' : 'unsubscribe_page';
        answer(ctx, await setSubscribed(ctx.state.em, config, params.token, false, reason), unsubscribedPage);
      },
    }),
    showRoute(deps, { name: 'subscribe', summary: 'Subscribe page: asks to confirm (GET), subscribes (POST)', show: subscribePage }),
    defineRoute({
      method: 'post',
      path: '/subscribe/{token}',
      tag: 'Subscription pages',
      summary: "Subscribes the link's contact",
      auth: 'none',
      params: TokenParams,
      malformedPath: invalidLink,
      bodyType: 'form',
      body: SubscribeForm,
      responses: RESPONSES,
      handler: async (ctx, { params }) =>
        answer(ctx, await setSubscribed(ctx.state.em, config, params.token, true, 'subscribe_page'), subscribedPage),
    }),
    showRoute(deps, {
      name: 'manage',
      summary: 'Preferences page: shows the subscription state with a choice (GET), sets it (POST)',
      show: (v) => managePage(v),
    }),
    defineRoute({
      method: 'post',
      path: '/manage/{token}',
      tag: 'Subscription pages',
      summary: "Sets the subscription state of the link's contact",
      auth: 'none',
      params: TokenParams,
      malformedPath: invalidLink,
      bodyType: 'form',
      body: ManageForm,
      responses: RESPONSES,
      handler: async (ctx, { params, body }) => {
        const subscribed = body.subscribed === 'true';
        answer(ctx, await setSubscribed(ctx.state.em, config, params.token, subscribed, 'preferences_page'), (v) => managePage(v, true));
      },
    }),
  ];
}
