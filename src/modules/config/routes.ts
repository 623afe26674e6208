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
  temporalUi: z
    .object({ url: z.string(), namespace: z.string() })
    .nullable()
    .describe(
      "The Temporal Web UI (TEMPORAL_UI_URL) and namespace: an execution's run is at {url}/namespaces/{namespace}/workflows/{temporalWorkflowId}; null when not set",
    ),
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
          temporalUi: deps.config.TEMPORAL_UI_URL
            ? { url: deps.config.TEMPORAL_UI_URL.replace(/\/+$/, ''), namespace: deps.config.TEMPORAL_NAMESPACE }
            : null,
        } satisfies z.infer<typeof ConfigResponse>;
      },
    }),
  ];
}
