import { z } from 'zod';
import type { Deps } from '../../deps';
import { defineRoute, type RouteDef } from '../../http/route';
import { VERSION } from '../../version';
import { SIMULATOR_DOMAIN } from '../../mail/simulator-domain';
import { SIMULATED_OUTCOMES, SIMULATED_OUTCOME_TEXT } from '../sandbox/addresses';

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
  development: z
    .object({
      simulator: z.array(z.object({ address: z.string(), outcome: z.string() })).describe('The simulator addresses and what each does'),
      mailCaptureUrl: z.string().nullable().describe('The local mail capture (MAIL_CAPTURE_URL), where mail to other addresses lands'),
      webhookCaptureUrl: z
        .string()
        .nullable()
        .describe('The local webhook capture (WEBHOOK_CAPTURE_URL): an endpoint to point webhooks at, with a page of what it received'),
    })
    .nullable()
    .describe('What a development sandbox offers (SANDBOX_ENABLED, docs/sandbox.md); null outside development'),
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
          development: deps.config.SANDBOX_ENABLED
            ? {
                simulator: SIMULATED_OUTCOMES.map((o) => ({ address: `${o}@${SIMULATOR_DOMAIN}`, outcome: SIMULATED_OUTCOME_TEXT[o] })),
                mailCaptureUrl: deps.config.MAIL_CAPTURE_URL ?? null,
                webhookCaptureUrl: deps.config.WEBHOOK_CAPTURE_URL ?? null,
              }
            : null,
        } satisfies z.infer<typeof ConfigResponse>;
      },
    }),
  ];
}
