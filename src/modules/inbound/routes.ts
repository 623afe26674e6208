import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { ApiError } from '../../http/errors';
import { defineRoute, type RouteDef } from '../../http/route';
import type { ImageStore } from '../uploads/store';
import { AttachmentBytes, AttachmentParams, InboundEnvelope, InboundIdParams, InboundPage, ListInboundQuery, RawMessage } from './schemas';
import { getInbound, inboundAttachment, listInbound, rawInbound } from './service';

const tag = 'Inbound';
const notFoundDoc = { 404: { description: 'NOT_FOUND: no such inbound email in this project' } };

/** Content types that a browser would run if opened inline; they are served as bytes to download. */
const ACTIVE = /^(text\/html|application\/xhtml|image\/svg|text\/xml|application\/xml|text\/javascript|application\/javascript)/i;

export function inboundRoutes(deps: Deps, store: ImageStore): RouteDef[] {
  const publicUrl = deps.config.PUBLIC_URL;
  return [
    defineRoute({
      method: 'get',
      path: '/inbound',
      tag,
      summary: 'Mail received at the domains with inbound on, newest first (without text, html and headers), with search',
      auth: 'secret',
      agent: { name: 'inbound_list' },
      query: ListInboundQuery,
      responses: { 200: { description: 'A cursor page of inbound emails', schema: InboundPage } },
      handler: async (ctx, { query }) => {
        ctx.body = await listInbound(ctx.state.em, publicUrl, requireProject(ctx).id, query);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/inbound/{id}',
      tag,
      summary: 'One inbound email: parsed content, headers, attachments, SPF/DKIM/DMARC and the email it answers',
      auth: 'secret',
      params: InboundIdParams,
      responses: { 200: { description: 'The inbound email', schema: InboundEnvelope }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        ctx.body = { success: true, data: await getInbound(ctx.state.em, publicUrl, requireProject(ctx).id, params.id) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/inbound/{id}/raw',
      tag,
      summary: "The message as received (message/rfc822), with Postwire's Received and Authentication-Results lines on top",
      auth: 'secret',
      params: InboundIdParams,
      responses: { 200: { description: 'The message', contentType: 'message/rfc822', schema: RawMessage }, ...notFoundDoc },
      handler: async (ctx, { params }) => {
        const raw = await rawInbound(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.type = 'message/rfc822';
        ctx.set('Content-Disposition', `attachment; filename="${params.id}.eml"`);
        ctx.body = raw;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/inbound/{id}/attachments/{index}',
      tag,
      summary: "An inbound email's attachment, by its position in `attachments`",
      auth: 'secret',
      params: AttachmentParams,
      responses: {
        200: { description: 'The attachment', contentType: 'application/octet-stream', schema: AttachmentBytes },
        404: { description: 'NOT_FOUND: no such inbound email in this project, or no attachment at that position' },
      },
      handler: async (ctx, { params }) => {
        const attachment = await inboundAttachment(ctx.state.em, requireProject(ctx).id, params.id, params.index);
        const bytes = await store.get(attachment.key);
        if (!bytes) throw new ApiError(404, 'NOT_FOUND', 'The attachment is no longer stored');
        ctx.type = ACTIVE.test(attachment.contentType) ? 'application/octet-stream' : attachment.contentType;
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Content-Security-Policy', "default-src 'none'");
        ctx.set(
          'Content-Disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(attachment.filename ?? `attachment-${params.index}`)}`,
        );
        ctx.body = bytes.body;
      },
    }),
  ];
}
