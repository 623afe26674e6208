import type { RouteDef } from '../../http/route';
import { defineRoute } from '../../http/route';
import { operationsOf, type Operation } from './catalog';
import { McpAnswer, McpBody, answerMcp } from './mcp/http';

/** POST /mcp, the Model Context Protocol endpoint (docs/mcp.md); its tools are the operations of `routes`. */
export function agentRoutes(routes: () => RouteDef[]): RouteDef[] {
  let operations: Operation[] | undefined;
  return [
    defineRoute({
      method: 'post',
      path: '/mcp',
      tag: 'MCP',
      summary:
        'The Model Context Protocol endpoint (Streamable HTTP, stateless, JSON answers): a tool per API operation, composed tools, the docs as resources',
      auth: 'secretKey',
      body: McpBody,
      responses: {
        200: { description: 'The JSON-RPC answer(s)', schema: McpAnswer },
        202: { description: 'Notifications or responses only: accepted, nothing to answer' },
        400: { description: 'BAD_REQUEST: not a JSON-RPC message the protocol allows' },
        406: { description: 'NOT_ACCEPTABLE: Accept must name application/json and text/event-stream' },
      },
      handler: async (ctx, { body }) => {
        operations ??= operationsOf(routes());
        await answerMcp(ctx, operations, body);
      },
    }),
  ];
}
