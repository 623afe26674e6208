import type { z } from 'zod';
import type { FieldError } from './errors';

/** zod 4 renamed some issue codes; the API keeps the names its contract documents (e.g. `invalid_string`). */
const CODE_NAMES: Record<string, string> = {
  invalid_format: 'invalid_string',
  invalid_value: 'invalid_enum_value',
  invalid_key: 'invalid_type',
  invalid_element: 'invalid_type',
};

const SECRET_FIELD = /password|secret|token/i;

function received(input: unknown, field: string): unknown {
  if (input === undefined || SECRET_FIELD.test(field)) return undefined;
  if (typeof input === 'string') return input.length > 200 ? `${input.slice(0, 200)}…` : input;
  if (typeof input === 'object' && input !== null) return Array.isArray(input) ? 'array' : 'object';
  return input;
}

/**
 * A body field's name: its path joined with dots (`to.0`, `data.plan`). In a body that is an array (a batch)
 * the item comes first in brackets: `[3].subject`.
 */
function fieldOf(path: PropertyKey[]): string {
  const [first, ...rest] = path;
  if (typeof first !== 'number') return path.map(String).join('.');
  return rest.length ? `[${first}].${rest.map(String).join('.')}` : `[${first}]`;
}

export function toFieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = prefix ? issue.path.map(String).join('.') : fieldOf(issue.path);
    const field = [prefix, path].filter(Boolean).join('.') || (prefix ?? 'body');
    // A refinement names its own code (e.g. `reserved_event`) through `params.code`.
    const custom = issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : undefined;
    const fe: FieldError = { field, message: issue.message, code: custom ?? CODE_NAMES[issue.code] ?? issue.code };
    const value = received(issue.input, field);
    if (value !== undefined) fe.received = value;
    return fe;
  });
}
