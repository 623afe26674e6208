import type { Config } from '../../config';
import type { Deps } from '../../deps';
import { requireProject, type AppContext } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import type { CapStanding } from '../billing/caps';
import { boundSendRateByCap, transactionalStanding } from '../billing/send-rate';
import { cancelEmail, emailView, rescheduleEmail } from './emails';
import {
  BatchResponse,
  EmailEnvelope,
  EmailIdParams,
  MAX_BATCH,
  RescheduleBody,
  SendResponse,
  batchBody,
  sendBody,
  sendBodyLimit,
  type SendBody,
} from './schemas';
import { sendBatcher } from './send-batcher';
import { sendBatch, sendEmails } from './service';

const MB = 1024 * 1024;
const tag = 'Sending';

const refusals = (bodyLimit: number) => ({
  400: { description: 'BAD_REQUEST: malformed JSON or an invalid Idempotency-Key header' },
  403: {
    description:
      'INTERNAL_SERVER_ERROR: the sender domain is not verified in this project; BILLING_LIMIT_EXCEEDED: the emails would pass the monthly TRANSACTIONAL cap (nothing is sent); FORBIDDEN or PROJECT_DISABLED',
  },
  409: { description: 'IDEMPOTENCY_KEY_REUSED: the key was already claimed by this project' },
  413: {
    description: `PAYLOAD_TOO_LARGE: a message would exceed 40 MB, or the body ${(bodyLimit / MB).toFixed(1)} MB (more than the largest valid request)`,
  },
  503: { description: 'SERVICE_UNAVAILABLE: a scheduled email could not be put on its Temporal timer; nothing was recorded' },
});

/** Answers a send, with the billing cap bounding the send rate headers; a refused send asks where the cap stands. */
async function answerSend(ctx: AppContext, config: Config, send: () => Promise<{ data: unknown; cap: CapStanding | null }>): Promise<void> {
  const project = requireProject(ctx);
  let cap: CapStanding | null | undefined;
  try {
    const sent = await send();
    cap = sent.cap;
    ctx.body = { success: true, data: sent.data };
  } finally {
    boundSendRateByCap(ctx, cap !== undefined ? cap : await transactionalStanding(ctx.state.em, config, project));
  }
}

const timestamp = () => new Date().toISOString();

export function emailRoutes(deps: Deps): RouteDef[] {
  const { config } = deps;
  const limits = { maxCount: config.MAX_ATTACHMENTS_COUNT, maxBytes: config.MAX_ATTACHMENT_SIZE_MB * MB };
  const bodyLimit = sendBodyLimit(limits, config.MAX_BODY_MB * MB);
  const batcher = sendBatcher(deps.orm, deps);
  const notFound = { 404: { description: 'NOT_FOUND: no such email in this project' } };
  return [
    defineRoute({
      method: 'post',
      path: '/v1/send',
      tag,
      summary:
        'Send an email to one or more recipients (with cc and bcc, one), from a template or inline content, now or at sendAt. Honours Idempotency-Key',
      auth: 'secret',
      sends: true,
      agent: { name: 'emails_send' },
      bucket: 'send',
      idempotent: true,
      bodyLimit,
      body: sendBody(limits),
      responses: {
        200: { description: 'One email per `to` recipient, recorded for delivery (or scheduled)', schema: SendResponse },
        ...refusals(bodyLimit),
        404: { description: 'TEMPLATE_NOT_FOUND: no such template in the project' },
        422: {
          description:
            'VALIDATION_ERROR, with the fields in `errors`: a template that does not render has code invalid_template; a sendAt beyond 30 days names sendAt; with cc or bcc, more than one to names to',
        },
      },
      handler: async (ctx, { body }) => {
        await answerSend(ctx, config, async () => {
          const sent = await sendEmails(ctx.state.em, config, batcher, requireProject(ctx), body);
          return { data: { emails: sent.emails, timestamp: timestamp() }, cap: sent.cap };
        });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/send/batch',
      tag,
      summary: `Send 1 to ${MAX_BATCH} different emails in one request, all validated first; one Idempotency-Key covers the batch`,
      auth: 'secret',
      sends: true,
      bucket: 'send',
      idempotent: true,
      weight: (items: SendBody[]) => items.length,
      agent: { name: 'emails_send_batch' },
      bodyLimit,
      body: batchBody(limits),
      responses: {
        200: { description: 'The /v1/send data of each item, in order', schema: BatchResponse },
        ...refusals(bodyLimit),
        422: {
          description:
            'VALIDATION_ERROR: every problem of every item, each field prefixed by its index (`[3].subject`); an unknown template is `[i].template` (not_found), an unverified sender `[i].from` (unverified_domain); nothing is stored',
        },
      },
      handler: async (ctx, { body }) => {
        await answerSend(ctx, config, async () => {
          const sent = await sendBatch(ctx.state.em, deps, requireProject(ctx), body);
          return {
            data: { batch: sent.batch.map((emails) => ({ emails, timestamp: timestamp() })), timestamp: timestamp() },
            cap: sent.cap,
          };
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/emails/{id}',
      tag,
      summary: "An email's status, recipients, tags and times",
      auth: 'secret',
      params: EmailIdParams,
      responses: { 200: { description: 'The email', schema: EmailEnvelope }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = { success: true, data: await emailView(ctx.state.em, requireProject(ctx).id, params.id) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/emails/{id}',
      tag,
      summary: 'Reschedule a SCHEDULED email (a past sendAt sends it now)',
      auth: 'secret',
      sends: true,
      params: EmailIdParams,
      body: RescheduleBody,
      responses: {
        200: { description: 'The email', schema: EmailEnvelope },
        ...notFound,
        409: { description: 'CONFLICT: the email is no longer SCHEDULED' },
        422: { description: 'VALIDATION_ERROR: sendAt is not a date-time, or more than 30 days ahead' },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached to set the timer of the new time; nothing changed' },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = {
          success: true,
          data: await rescheduleEmail(ctx.state.em, deps.temporal, requireProject(ctx).id, params.id, body.sendAt),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/emails/{id}/cancel',
      tag,
      summary: 'Cancel a SCHEDULED email: it becomes CANCELLED and is never sent',
      auth: 'secret',
      params: EmailIdParams,
      responses: {
        200: { description: 'The email', schema: EmailEnvelope },
        ...notFound,
        409: { description: 'CONFLICT: the email is no longer SCHEDULED' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = { success: true, data: await cancelEmail(ctx.state.em, requireProject(ctx).id, params.id) };
      },
    }),
  ];
}
