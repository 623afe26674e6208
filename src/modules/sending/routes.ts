import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import type { CapStanding } from '../billing/caps';
import { boundSendRateByCap, transactionalStanding } from '../billing/send-rate';
import { SendResponse, sendBody, sendBodyLimit } from './schemas';
import { sendEmails } from './service';

const MB = 1024 * 1024;

export function emailRoutes(deps: Deps): RouteDef[] {
  const { config } = deps;
  const limits = { maxCount: config.MAX_ATTACHMENTS_COUNT, maxBytes: config.MAX_ATTACHMENT_SIZE_MB * MB };
  const bodyLimit = sendBodyLimit(limits, config.MAX_BODY_MB * MB);
  return [
    defineRoute({
      method: 'post',
      path: '/v1/send',
      tag: 'Sending',
      summary: 'Send an email to one or more recipients, from a template or inline content. Honours Idempotency-Key',
      auth: 'secret',
      sends: true,
      agent: { name: 'emails_send' },
      bucket: 'send',
      idempotent: true,
      bodyLimit,
      body: sendBody(limits),
      responses: {
        200: { description: 'One email per recipient, recorded for delivery', schema: SendResponse },
        400: { description: 'BAD_REQUEST: malformed JSON or an invalid Idempotency-Key header' },
        403: {
          description:
            'INTERNAL_SERVER_ERROR: the sender domain is not verified in this project; BILLING_LIMIT_EXCEEDED: the recipients would pass the monthly TRANSACTIONAL cap (nothing is sent); FORBIDDEN or PROJECT_DISABLED',
        },
        404: { description: 'TEMPLATE_NOT_FOUND: no such template in the project' },
        409: { description: 'IDEMPOTENCY_KEY_REUSED: the key was already claimed by this project' },
        413: {
          description: `PAYLOAD_TOO_LARGE: the message would exceed 40 MB, or the body ${(bodyLimit / MB).toFixed(1)} MB (more than the largest valid request)`,
        },
        422: { description: 'VALIDATION_ERROR, with the fields in `errors`; a template that does not render has code invalid_template' },
      },
      handler: async (ctx, { body }) => {
        const project = requireProject(ctx);
        let cap: CapStanding | null | undefined;
        try {
          const sent = await sendEmails(ctx.state.em, config, project, body);
          cap = sent.cap;
          ctx.body = { success: true, data: { emails: sent.emails, timestamp: new Date().toISOString() } };
        } finally {
          // A recorded send knows where the cap stands; a refused one asks.
          boundSendRateByCap(ctx, cap !== undefined ? cap : await transactionalStanding(ctx.state.em, deps.config, project));
        }
      },
    }),
  ];
}
