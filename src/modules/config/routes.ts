import { z } from 'zod';
import type { Deps } from '../../deps';
import { defineRoute, type RouteDef } from '../../http/route';
import { VERSION } from '../../version';

const ConfigResponse = z.object({
  signupsEnabled: z.boolean(),
  billingEnabled: z.boolean(),
  oauthProviders: z.array(z.string()),
  trackingEnabled: z.boolean(),
  version: z.string(),
});

export function configRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/config',
      tag: 'Configuration',
      summary: 'Feature flags: which integrations this deployment has enabled',
      auth: 'none',
      responses: { 200: { description: 'Feature flags', schema: ConfigResponse } },
      handler: (ctx) => {
        ctx.body = {
          signupsEnabled: !deps.config.DISABLE_SIGNUPS,
          billingEnabled: false,
          oauthProviders: [],
          trackingEnabled: true,
          version: VERSION,
        } satisfies z.infer<typeof ConfigResponse>;
      },
    }),
  ];
}
