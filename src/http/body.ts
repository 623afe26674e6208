import type { AppContext } from './context';
import { ApiError, badRequest } from './errors';
import { assertJsonShape } from './json-shape';
import { assertJsonText, assertText, decodeUtf8 } from './well-formed';

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

/**
 * The body parsed as JSON (`undefined` when empty, so that the route's schema decides whether that is
 * allowed), once its text passed the checks of src/http/well-formed.ts.
 */
export async function readJsonBody(ctx: AppContext, limit: number): Promise<unknown> {
  const type = ctx.get('content-type');
  if (type && !ctx.is('application/json', 'application/*+json')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Expected application/json, got ${type}`);
  }
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return undefined;
  const text = decodeUtf8(raw);
  assertJsonShape(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest('Malformed JSON body', {
      details: { reason: e instanceof Error ? e.message : String(e) },
      suggestion: 'Send a valid JSON document with Content-Type: application/json.',
    });
  }
  assertJsonText(text, value);
  return value;
}

export async function readFormBody(ctx: AppContext, limit: number): Promise<Record<string, string>> {
  const form = Object.fromEntries(new URLSearchParams(decodeUtf8(await readRawBody(ctx, limit))));
  assertText(form);
  return form;
}
