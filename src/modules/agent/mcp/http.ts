import { z } from 'zod';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AppContext } from '../../../http/context';
import { ApiError } from '../../../http/errors';
import { inProcess } from '../../../http/in-process';
import { AgentApi } from '../api';
import type { Operation } from '../catalog';
import { createMcpServer } from './server';

const Id = z.union([z.string(), z.number().int()]);
const Message = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: Id.optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
});
export const McpBody = z
  .union([Message, z.array(Message).min(1).max(100)])
  .describe('A JSON-RPC 2.0 message of the Model Context Protocol, or a batch');

const Answer = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: Id.nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
});
export const McpAnswer = z.union([Answer, z.array(Answer)]);

/** The transport's refusals, as the API's error codes. */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** The message of the transport's JSON-RPC error body, if it has one. */
function refusalOf(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  } catch {
    return undefined;
  }
}

function headersOf(ctx: AppContext): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * Answers one POST /mcp: a stateless Streamable HTTP transport and a server made for this request (any API
 * replica can answer any message), whose tool calls go to this app in-process with the caller's key.
 */
export async function answerMcp(ctx: AppContext, operations: readonly Operation[], body: unknown): Promise<void> {
  const api = new AgentApi(operations, inProcess(ctx.app), 'http://in-process/', {
    authorization: ctx.get('authorization'),
    'x-request-id': ctx.state.requestId,
  });
  const server = createMcpServer(api);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(new Request(ctx.href, { method: 'POST', headers: headersOf(ctx) }), {
      parsedBody: body,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new ApiError(response.status, CODES[response.status] ?? 'BAD_REQUEST', refusalOf(text) ?? 'The MCP request was refused', {
        suggestion: 'Send JSON-RPC messages with Accept: application/json, text/event-stream, as MCP clients do (docs/mcp.md).',
      });
    }
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') ctx.set(name, value);
    });
    // The transport's JSON as it is, under its Content-Type, rather than parsed here to be written again.
    ctx.body = text;
  } finally {
    await server.close();
  }
}
