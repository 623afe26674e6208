import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toFieldErrors } from '../../../http/zod-issues';
import { toJsonSchema } from '../../openapi/schemas';
import type { AgentApi } from '../api';
import { InputError } from '../request';

/** A tool that answers a question with several calls of the API, each through its pipeline like any tool's. */
export interface ComposedTool {
  tool: Tool;
  run(args: Record<string, unknown>): Promise<unknown>;
}

export interface ComposedSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(api: AgentApi, input: z.output<S>): Promise<unknown>;
}

/** The tool of a spec, converted once (the stateless endpoint makes a server per message). */
const tools = new WeakMap<object, Tool>();
function toolOf(spec: ComposedSpec<z.ZodType>): Tool {
  let tool = tools.get(spec);
  if (!tool) {
    const { $schema: _dialect, ...inputSchema } = toJsonSchema(spec.input, 'input');
    tool = {
      name: spec.name,
      description: spec.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    };
    tools.set(spec, tool);
  }
  return tool;
}

/** A composed tool from its spec: input as JSON Schema, refused in the API's VALIDATION_ERROR shape when invalid. */
export function composed<S extends z.ZodType>(api: AgentApi, spec: ComposedSpec<S>): ComposedTool {
  return {
    tool: toolOf(spec as unknown as ComposedSpec<z.ZodType>),
    run: async (args) => {
      const parsed = spec.input.safeParse(args, { reportInput: true });
      if (!parsed.success) {
        throw new InputError({
          code: 'VALIDATION_ERROR',
          message: 'Validation failed',
          statusCode: 422,
          errors: toFieldErrors(parsed.error),
        });
      }
      return spec.run(api, parsed.data);
    },
  };
}
