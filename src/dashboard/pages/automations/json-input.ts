import { ApiFailure } from '../../api/client';

/** A JSON object typed in a text area (empty is `{}`); a typing mistake is refused beside its field, as the API refuses one. */
export function jsonObject(text: string, field: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ApiFailure(0, 'VALIDATION_ERROR', `${field} must be a JSON object`, 'For example {"plan": "pro"}.', [
    { field, message: 'Must be a JSON object' },
  ]);
}
