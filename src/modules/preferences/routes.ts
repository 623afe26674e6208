import type { z } from 'zod';
import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { defineRoute, type ResponseDoc, type RouteDef } from '../../http/route';
import { invalidLinkPage, sendPage } from '../pages/html';
import { EmptyForm, HtmlPage, TokenParams } from '../pages/schemas';
import { ManageForm, ManageTopicsForm, SnoozeForm, UnsubscribeForm, UnsubscribeQuery } from './schemas';
import { preferencesOf, setSnooze, setSubscribed, setTopics } from './service';
import {
  managePage,
  subscribePage,
  subscribedPage,
  topicField,
  topicLeftPage,
  unsubscribePage,
  unsubscribedPage,
  type PreferenceView,
} from './views';

const page = (description: string): ResponseDoc => ({ description, contentType: 'text/html', schema: HtmlPage });
const RESPONSES = {
  200: page('The page'),
  404: page('The link is forged, malformed, or its contact was deleted; nothing changed'),
};

const invalidLink = (ctx: AppContext) => sendPage(ctx, 404, invalidLinkPage());

/** Answers the page `render` makes of the contact's state, or the invalid-link page. */
function answer(ctx: AppContext, view: PreferenceView | null, render: (v: PreferenceView) => string): void {
  if (view) sendPage(ctx, 200, render(view));
  else invalidLink(ctx);
}

interface PageRoute {
  name: 'subscribe' | 'manage';
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

/** A form of the preference center, posted to `/manage/{token}/<action>`. */
function manageRoute<B extends z.ZodType>(
  action: 'topics' | 'snooze' | 'resume',
  summary: string,
  body: B,
  handle: (ctx: AppContext, token: string, body: z.output<B>) => Promise<void>,
  responses: Record<number, ResponseDoc> = RESPONSES,
): RouteDef {
  return defineRoute({
    method: 'post',
    path: `/manage/{token}/${action}`,
    tag: 'Subscription pages',
    summary,
    auth: 'none',
    params: TokenParams,
    malformedPath: invalidLink,
    bodyType: 'form',
    body,
    responses,
    // `Out<B>` of a generic B does not narrow to its output type; it is the same type once B is known.
    handler: (ctx, input) => handle(ctx, input.params.token, input.body as z.output<B>),
  });
}

/**
 * The subscription pages of docs/tracking.md that unsubscribeUrl, subscribeUrl and manageUrl point to, and
 * the preference center's topics and snooze (docs/consent.md).
 */
export function preferenceRoutes(deps: Deps): RouteDef[] {
  const { config } = deps;
  const saved = (v: PreferenceView) => managePage(v, true);
  return [
    defineRoute({
      method: 'get',
      path: '/unsubscribe/{token}',
      tag: 'Subscription pages',
      summary: 'Unsubscribe page: asks to confirm (GET), unsubscribes (POST); with `topic`, from that topic only',
      auth: 'none',
      params: TokenParams,
      query: UnsubscribeQuery,
      malformedPath: invalidLink,
      responses: RESPONSES,
      handler: async (ctx, { params, query }) =>
        answer(ctx, await preferencesOf(ctx.state.em, config, params.token, query.topic), unsubscribePage),
    }),
    defineRoute({
      method: 'post',
      path: '/unsubscribe/{token}',
      tag: 'Subscription pages',
      summary:
        "Unsubscribes the link's contact (with `topic`, leaves that topic only): the page's confirmation, or a mail client's RFC 8058 one-click POST",
      auth: 'none',
      params: TokenParams,
      query: UnsubscribeQuery,
      malformedPath: invalidLink,
      bodyType: 'form',
      body: UnsubscribeForm,
      responses: RESPONSES,
      handler: async (ctx, { params, query, body }) => {
        const reason = body['List-Unsubscribe'] === 'One-Click' ? 'one_click' : 'unsubscribe_page';
        const scoped = await preferencesOf(ctx.state.em, config, params.token, query.topic);
        if (scoped?.topic) {
          const left = await setTopics(ctx.state.em, config, params.token, [{ topicId: scoped.topic.topicId, member: false }], reason);
          return answer(ctx, left && { ...left, topic: { ...scoped.topic, member: false } }, topicLeftPage);
        }
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
      body: EmptyForm,
      responses: RESPONSES,
      handler: async (ctx, { params }) =>
        answer(ctx, await setSubscribed(ctx.state.em, config, params.token, true, 'subscribe_page'), subscribedPage),
    }),
    showRoute(deps, {
      name: 'manage',
      summary: 'Preference center: the subscription, topics to toggle and a snooze (GET); POST sets the subscription',
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
        answer(ctx, await setSubscribed(ctx.state.em, config, params.token, subscribed, 'preferences_page'), saved);
      },
    }),
    manageRoute(
      'topics',
      "Joins the checked topics and leaves the other ones shown, for the link's contact",
      ManageTopicsForm,
      async (ctx, token, form) => {
        const shown = form.shown.trim() === '' ? [] : form.shown.trim().toLowerCase().split(/ +/);
        const changes = shown.map((topicId) => ({ topicId, member: form[topicField(topicId)] === 'in' }));
        answer(ctx, await setTopics(ctx.state.em, config, token, changes, 'preferences_page'), saved);
      },
    ),
    manageRoute(
      'snooze',
      "Pauses marketing email to the link's contact for the period chosen",
      SnoozeForm,
      async (ctx, token, form) => answer(ctx, await setSnooze(ctx.state.em, deps, token, form.period), saved),
      { ...RESPONSES, 503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing changed' } },
    ),
    manageRoute('resume', "Ends the snooze of the link's contact now", EmptyForm, async (ctx, token) =>
      answer(ctx, await setSnooze(ctx.state.em, deps, token, null), saved),
    ),
  ];
}
