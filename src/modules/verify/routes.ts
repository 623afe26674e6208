import type { Deps } from '../../deps';
import { defineRoute, type RouteDef } from '../../http/route';
import { VerifyRequest, VerifyResponse } from './schemas';
import { verifyEmail } from './service';

export function verifyRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/verify',
      tag: 'Verification',
      summary: 'Check an address: format, nameservers and MX, disposable, alias, free provider, typos',
      auth: 'secret',
      agent: { name: 'emails_verify', readOnly: true },
      body: VerifyRequest,
      responses: {
        200: { description: 'The verification result', schema: VerifyResponse },
        422: { description: 'VALIDATION_ERROR: email missing or not an email address' },
      },
      handler: async (ctx, { body }) => {
        ctx.body = { success: true, data: await verifyEmail(deps.dns, body.email) };
      },
    }),
  ];
}
