import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestStack } from '../helpers/stack';

export const baseUrl = (stack: TestStack) => `http://127.0.0.1:${(stack.server.address() as AddressInfo).port}`;

/** The official SDK's client on the stack's /mcp, with these request headers (the key). */
export async function mcpClient(stack: TestStack, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'postwire-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl(stack)}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The structured content of a tool's result, which must not be an error. */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const r = result as { isError?: boolean; structuredContent?: T; content?: Array<{ text?: string }> };
  if (r.isError) throw new Error(`tool error: ${r.content?.[0]?.text}`);
  return r.structuredContent as T;
}
