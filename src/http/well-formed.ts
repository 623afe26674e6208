import type { FieldError } from './errors';

/**
 * Strings (values or keys) of a JSON body that hold a lone UTF-16 surrogate, e.g. `"\ud800"`: JSON allows
 * the escape, but no text encoding can store it, so PostgreSQL would refuse the write after validation.
 */
export function illFormedStrings(value: unknown, path: string[] = []): FieldError[] {
  if (typeof value === 'string') return value.isWellFormed() ? [] : [issue(path)];
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([key, v]) => (key.isWellFormed() ? illFormedStrings(v, [...path, key]) : [issue([...path, key])]));
}

const issue = (path: string[]): FieldError => ({
  field: path.join('.') || 'body',
  message: 'Contains a lone UTF-16 surrogate, which is not text',
  code: 'invalid_string',
});
