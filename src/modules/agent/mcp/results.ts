import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiAnswer, ApiFailure } from '../request';

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** The API's JSON as the tool's structured content (an object; other answers are wrapped with their status). */
export function successOf(answer: Pick<ApiAnswer, 'status' | 'body'>): CallToolResult {
  const structured = isRecord(answer.body) ? answer.body : { status: answer.status, body: answer.body };
  // Compact: the text is what clients without structured content show the model, and every byte is a token.
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** The API's error as a tool error: the message an assistant reads, with the fields at fault and the suggestion. */
export function failureResult(failure: ApiFailure): CallToolResult {
  const lines = [`${failure.code} (${failure.statusCode}): ${failure.message}`];
  for (const e of failure.errors ?? []) lines.push(`- ${e.field}: ${e.message}`);
  if (failure.suggestion) lines.push(`Suggestion: ${failure.suggestion}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { error: failure } };
}
