import type { AppContext } from './context';
import { ApiError, badRequest, type FieldError } from './errors';
import { illFormedStrings } from './well-formed';

const tooLarge = (limit: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${Math.round(limit / 1024 / 1024)} MB`, {
    suggestion: 'Send a smaller body, for example fewer or smaller attachments.',
  });

export async function readRawBody(ctx: AppContext, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      ctx.req.resume();
      throw tooLarge(limit);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export interface JsonBody {
  /** `undefined` for an empty body, so that the route's schema decides whether that is allowed. */
  value: unknown;
  /** Strings of the body that hold a lone UTF-16 surrogate (src/http/well-formed.ts). */
  illFormed: FieldError[];
}

// Decoding UTF-8 never yields a lone surrogate; only a \uD800-\uDFFF escape in the JSON text can.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export async function readJsonBody(ctx: AppContext, limit: number): Promise<JsonBody> {
  const type = ctx.get('content-type');
  if (type && !ctx.is('application/json', 'application/*+json')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Expected application/json, got ${type}`);
  }
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return { value: undefined, illFormed: [] };
  const text = raw.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest('Malformed JSON body', {
      details: { reason: e instanceof Error ? e.message : String(e) },
      suggestion: 'Send a valid JSON document with Content-Type: application/json.',
    });
  }
  return { value, illFormed: SURROGATE_ESCAPE.test(text) ? illFormedStrings(value) : [] };
}

export async function readFormBody(ctx: AppContext, limit: number): Promise<Record<string, string>> {
  const raw = await readRawBody(ctx, limit);
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
}
