import type { Deps } from '../../deps';
import { readRawBody } from '../../http/body';
import { defineRoute, type RouteDef } from '../../http/route';
import { SnsMessage, SnsResponse } from './schemas';
import { parseSnsMessage, SnsWebhook } from './service';
import { checkAfterFeedback } from '../reputation/guard';

/** SNS messages are at most 256 KB. */
const BODY_LIMIT = 512 * 1024;

export function snsRoutes(deps: Deps): RouteDef[] {
  const webhook = new SnsWebhook(deps.config, (projectId) => checkAfterFeedback(deps, projectId));
  return [
    defineRoute({
      method: 'post',
      path: '/webhooks/sns',
      tag: 'Webhooks',
      summary: 'Amazon SES bounce, complaint and delivery notifications delivered by Amazon SNS, signature-verified (docs/bounces.md)',
      auth: 'none',
      // SNS posts JSON as text/plain, which the JSON reader refuses: the handler reads the body itself.
      bodyType: 'none',
      bodyContentType: 'text/plain',
      body: SnsMessage,
      responses: {
        200: { description: 'Handled; `result` says what it did', schema: SnsResponse },
        400: { description: 'BAD_REQUEST: not JSON, or a SubscribeURL that is not an allowed SNS host' },
        403: {
          description:
            'INVALID_SIGNATURE: the signature, its version or its certificate URL is not valid; FORBIDDEN: a topic not in SNS_TOPIC_ARNS. Nothing changed',
        },
        413: { description: 'PAYLOAD_TOO_LARGE' },
        422: { description: 'VALIDATION_ERROR: not an SNS message' },
        503: {
          description: 'SERVICE_UNAVAILABLE: the signing certificate or the subscription confirmation could not be fetched; SNS retries',
        },
      },
      handler: async (ctx) => {
        const message = parseSnsMessage(await readRawBody(ctx, BODY_LIMIT));
        ctx.body = { success: true, data: await webhook.handle(ctx.state.em, message) } satisfies SnsResponse;
      },
    }),
  ];
}
