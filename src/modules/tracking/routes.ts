import { z } from 'zod';
import type { Deps } from '../../deps';
import type { AppContext } from '../../http/context';
import { notFound } from '../../http/errors';
import { defineRoute, type RouteDef } from '../../http/route';
import { isSignedClick, isSignedOpen, isWebPage } from '../links/tracking';
import { ClickQuery, OpenQuery, TrackedEmailParams } from './schemas';
import { recordClick, recordOpen } from './service';

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const invalidLink = () => notFound('Link');

function noCache(ctx: AppContext): void {
  ctx.set('Cache-Control', 'no-store, no-cache, must-revalidate, max-age=0');
  ctx.set('Pragma', 'no-cache');
  ctx.set('Expires', '0');
}

export function trackingRoutes(deps: Deps): RouteDef[] {
  const { config, logger } = deps;
  // A reader must get the image or the page whatever happens to the bookkeeping, so a failure to record is
  // logged, not answered. HEAD requests (link checkers, scanners) are no opens or clicks.
  const record = async (ctx: AppContext, what: string, write: () => Promise<void>) => {
    if (ctx.method === 'HEAD') return;
    await write().catch((err: unknown) => logger.error({ err, requestId: ctx.state.requestId }, `could not record an email ${what}`));
  };
  return [
    defineRoute({
      method: 'get',
      path: '/t/o/{emailId}',
      tag: 'Tracking',
      summary: 'Open pixel that emails carry (docs/tracking.md): records the open, answers a 1x1 GIF that is never cached',
      auth: 'none',
      params: TrackedEmailParams,
      query: OpenQuery,
      responses: {
        200: { description: 'A transparent 1x1 GIF', contentType: 'image/gif', schema: z.string().describe('Binary GIF') },
        400: { description: 'BAD_REQUEST: the signature is missing' },
        404: { description: 'NOT_FOUND: the signature does not match; nothing is recorded' },
      },
      handler: async (ctx, { params, query }) => {
        if (!isSignedOpen(config, params.emailId, query.s)) throw invalidLink();
        await record(ctx, 'open', () => recordOpen(ctx.state.em, params.emailId));
        noCache(ctx);
        ctx.type = 'image/gif';
        ctx.body = PIXEL;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/t/c/{emailId}',
      tag: 'Tracking',
      summary: "Click redirect that emails' links go through (docs/tracking.md): records the click and redirects to the signed target",
      auth: 'none',
      params: TrackedEmailParams,
      query: ClickQuery,
      responses: {
        302: {
          description: 'Redirect to the link of the email (Location)',
          contentType: 'text/html',
          schema: z.string().describe('A link to the target'),
        },
        400: { description: 'BAD_REQUEST: the target or signature is missing' },
        404: { description: 'NOT_FOUND: the signature does not match the email and target; there is no redirect and nothing is recorded' },
      },
      handler: async (ctx, { params, query }) => {
        if (!isWebPage(query.u) || !isSignedClick(config, params.emailId, query.u, query.s)) throw invalidLink();
        await record(ctx, 'click', () => recordClick(ctx.state.em, params.emailId, query.u));
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(query.u);
      },
    }),
  ];
}
