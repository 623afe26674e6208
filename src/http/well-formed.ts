import { badRequest, validationError, type FieldError } from './errors';

/**
 * The one place that decides what text the API accepts, for every body and query of every route
 * (docs/architecture.md "The body pipeline"): bytes that are not UTF-8 are a 400; a string or key holding NUL (U+0000), which
 * PostgreSQL text cannot store, or a lone UTF-16 surrogate (`"\ud800"`, allowed by JSON but by no text
 * encoding) is a 422 naming the field. The shape of JSON text (nesting, members, values) has its own check,
 * json-shape.ts, before parsing.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text, or a 400 when its bytes are not UTF-8 (instead of replacing them with U+FFFD). */
export function decodeUtf8(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw badRequest('The request body is not valid UTF-8', { suggestion: 'Encode the body as UTF-8.' });
  }
}

/**
 * What every string of a body or query must match, for the OpenAPI document (src/modules/openapi/schemas.ts): no
 * NUL. The checks below enforce it before any route's schema sees the text.
 */
export const NUL_FREE_PATTERN = '^[^\\u0000]*$';

// Decoding UTF-8 never yields NUL's escape or a lone surrogate; only a \u escape in JSON text can.
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** A 422 naming each string (value or key) of a parsed JSON body that holds NUL or a lone surrogate. */
export function assertJsonText(text: string, value: unknown): void {
  if (!SUSPECT_ESCAPE.test(text)) return;
  assertText(value);
}

/** A 422 naming each string (value or key) of `value` that is not storable text; `path` prefixes the names. */
export function assertText(value: unknown, prefix?: string): void {
  const errors = textIssues(value, prefix ? [prefix] : []);
  if (errors.length > 0) throw validationError(errors);
}

/** The query string's parameters: a 400 when a percent-escape is not UTF-8, a 422 for NUL. */
export function assertQueryText(querystring: string, query: Record<string, unknown>): void {
  for (const part of querystring.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw badRequest('The query string is not valid UTF-8', {
        details: { parameter: part.split('=')[0] },
        suggestion: 'Percent-encode the UTF-8 bytes of each character.',
      });
    }
  }
  assertText(query, 'query');
}

function textIssues(value: unknown, path: string[]): FieldError[] {
  if (typeof value === 'string') return textIssue(value, path);
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([key, v]) => {
    const keyIssue = textIssue(key, [...path, key]);
    return keyIssue.length > 0 ? keyIssue : textIssues(v, [...path, key]);
  });
}

function textIssue(text: string, path: string[]): FieldError[] {
  const field = path.join('.') || 'body';
  if (text.includes('\0')) return [{ field, message: 'Contains NUL (U+0000), which text cannot hold', code: 'invalid_string' }];
  if (!text.isWellFormed()) return [{ field, message: 'Contains a lone UTF-16 surrogate, which is not text', code: 'invalid_string' }];
  return [];
}
