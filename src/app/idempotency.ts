import type { Deps } from '../deps';
import { claimKey, releaseKey, settleKey, type KeyClaim } from '../modules/idempotency/store';
import { requireProject, type AppContext } from '../http/context';
import { databaseApiError } from './database-errors';
import { ApiError, PlainError, badRequest } from '../http/errors';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** The `Idempotency-Key` header: undefined when absent, 400 when present but not 1-255 printable ASCII. */
function headerKey(ctx: AppContext): string | undefined {
  const raw = ctx.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && PRINTABLE_ASCII.test(raw)) return raw;
  throw badRequest('Invalid Idempotency-Key header', {
    details: { header: 'Idempotency-Key' },
    suggestion: 'Send 1 to 255 printable ASCII characters, for example a UUID.',
  });
}

const statusOf = (err: unknown) =>
  err instanceof ApiError || err instanceof PlainError ? err.status : (databaseApiError(err)?.status ?? 500);

/**
 * Runs a handler under docs/idempotency.md: a key is claimed per project (whatever the endpoint) before
 * the handler runs; a 4xx outcome releases it for a retry, 2xx and 5xx keep it until it expires. A request
 * whose key is held gets 409 IDEMPOTENCY_KEY_REUSED and is not performed; the original is not replayed.
 */
export async function withIdempotency(deps: Deps, ctx: AppContext, run: () => Promise<void> | void): Promise<void> {
  const key = headerKey(ctx);
  if (key === undefined) return run();
  const em = ctx.state.em;
  const outcome = await claimKey(
    em,
    requireProject(ctx).id,
    key,
    { method: ctx.method, path: ctx.path },
    deps.config.IDEMPOTENCY_KEY_TTL_HOURS,
  );
  if (!outcome.claimed) {
    const { holder } = outcome;
    throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', `This Idempotency-Key was already used by ${holder.method} ${holder.path}`, {
      details: {
        key,
        originalRequest: `${holder.method} ${holder.path}`,
        originalRequestAt: holder.createdAt.toISOString(),
        originalStatusCode: holder.statusCode,
      },
      suggestion: 'Use a new key for a new request; a key is freed only when its request failed with a 4xx.',
    });
  }
  let status: number;
  try {
    await run();
    status = ctx.status;
  } catch (err) {
    await finish(deps, ctx, outcome.claim, statusOf(err));
    throw err;
  }
  await finish(deps, ctx, outcome.claim, status);
}

async function finish(deps: Deps, ctx: AppContext, claim: KeyClaim, status: number): Promise<void> {
  try {
    if (status >= 400 && status < 500) await releaseKey(ctx.state.em, claim);
    else await settleKey(ctx.state.em, claim, status);
  } catch (err) {
    // The request itself is done; a key left in flight only answers later reuse with a null status.
    deps.logger.warn({ err, key: claim.key, requestId: ctx.state.requestId }, 'could not record the idempotency outcome');
  }
}
