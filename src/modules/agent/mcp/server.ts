import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../../version';
import { ApiCallError, type AgentApi } from '../api';
import type { Operation } from '../catalog';
import { InputError, Unreachable, failureOf } from '../request';
import { composedTools } from './composed';
import { OPENAPI_URI, listResources, readDoc } from './resources';
import { failureResult, successOf } from './results';

const INSTRUCTIONS = [
  'Postwire is an email platform: contacts, events, transactional sending, templates, segments, campaigns, automations',
  '(called workflows in the API) and sender domains, all within the one project of the API key.',
  'There is one tool per API operation, named <group>_<action> (contacts_list, emails_send, campaigns_send); its input',
  "holds the path parameters, the query parameters and the body's fields side by side (or the body under `body`).",
  'Failures come back as the API error: code, message, the fields at fault and a suggestion.',
  'explain_email, automation_for_contact and execution_timeline combine several calls. The docs are resources.',
].join(' ');

/** An operation as an MCP tool: its input is the route's zod schemas as JSON Schema; hints follow its method. */
export function toolOf(op: Operation): Tool {
  return {
    name: op.name,
    description: op.description,
    inputSchema: op.inputSchema as Tool['inputSchema'],
    annotations: {
      title: op.summary.split(/[;:(]/)[0]!.trim(),
      readOnlyHint: op.readOnly,
      destructiveHint: op.destructive,
      idempotentHint: op.readOnly || op.method === 'put' || op.method === 'delete',
    },
  };
}

/** The tools of an operation list, made once: every message of the stateless endpoint gets a new server. */
const toolLists = new WeakMap<readonly Operation[], Tool[]>();
function toolsOf(operations: readonly Operation[]): Tool[] {
  let tools = toolLists.get(operations);
  if (!tools) toolLists.set(operations, (tools = operations.map(toolOf)));
  return tools;
}

const unexpected = (err: unknown): CallToolResult =>
  failureResult({ code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err), statusCode: 500 });

/**
 * The MCP server over `api`: one tool per operation, the composed tools, and the docs as resources. Each tool
 * call is a request to the API through its whole pipeline; the API's answer, success or error, is the result.
 */
export function createMcpServer(api: AgentApi): Server {
  const server = new Server(
    { name: 'postwire', title: 'Postwire', version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const composed = composedTools(api);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...toolsOf(api.operations), ...composed.map((c) => c.tool)] }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const special = composed.find((c) => c.tool.name === name);
    const op = special ? undefined : api.byName(name);
    if (!special && !op) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}; tools/list names every tool`);
    try {
      if (special) return successOf({ status: 200, body: await special.run(args) });
      const answer = await api.call(op!, args);
      return answer.ok ? successOf(answer) : failureResult(failureOf(answer));
    } catch (err) {
      if (err instanceof InputError || err instanceof ApiCallError) return failureResult(err.failure);
      if (err instanceof Unreachable) {
        return failureResult({
          code: 'API_UNREACHABLE',
          message: err.message,
          statusCode: 503,
          suggestion: 'Start the API, or point POSTWIRE_URL at it.',
        });
      }
      return unexpected(err);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources() }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === OPENAPI_URI) {
      const answer = await api.get('/openapi.json');
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(answer.body) }] };
    }
    const text = await readDoc(uri);
    if (text === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}; resources/list names every resource`);
    return { contents: [{ uri, mimeType: 'text/markdown', text }] };
  });
  return server;
}
