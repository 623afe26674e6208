import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../http/route';
import { buildOpenApi } from './document';

export function openapiRoutes(documented: () => RouteDef[]): RouteDef[] {
  let cached: Record<string, unknown> | undefined;
  const self: RouteDef[] = [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tag: 'Configuration',
      summary: 'This OpenAPI document',
      auth: 'none',
      responses: { 200: { description: 'OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
      handler: (ctx) => {
        cached ??= buildOpenApi([...documented(), ...self]);
        ctx.body = cached;
      },
    }),
  ];
  return self;
}
