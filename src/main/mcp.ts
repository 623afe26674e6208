/**
 * `npm run mcp` / `npx postwire-mcp`: the MCP server over stdio, for assistants that start their servers as
 * processes (docs/mcp.md). The same tools as POST /mcp, generated from this checkout's route list, each call
 * sent to the API at POSTWIRE_URL with POSTWIRE_API_KEY. Nothing but the protocol may reach stdout.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { declaredRoutes } from '../app/declared-routes';
import { AgentApi } from '../modules/agent/api';
import { operationsOf } from '../modules/agent/catalog';
import { ConfigError, clientConfig } from '../modules/agent/client-config';
import { createMcpServer } from '../modules/agent/mcp/server';
import { remoteDispatch } from '../modules/agent/request';

async function main(): Promise<void> {
  const config = clientConfig(process.env);
  if (!config.key) {
    process.stderr.write(
      "postwire-mcp: set POSTWIRE_API_KEY to the project's secret key (sk_…), or apiKey in ~/.config/postwire/config.json\n",
    );
    process.exit(2);
  }
  const api = new AgentApi(operationsOf(declaredRoutes()), remoteDispatch(config.url), config.url, {
    authorization: `Bearer ${config.key}`,
  });
  await createMcpServer(api).connect(new StdioServerTransport());
}

main().catch((err: unknown) => {
  process.stderr.write(`postwire-mcp: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
