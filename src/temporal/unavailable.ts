import { ServiceError } from '@temporalio/client';
import { ApiError } from '../http/errors';

/**
 * Runs `work`, a call to Temporal made for a request. Temporal being unreachable is the request's 503, saying
 * `what` (e.g. "nothing was changed"); any other failure passes through.
 */
export async function callTemporal<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', `Temporal cannot be reached right now, so ${what}`, {
      suggestion: 'Try again in a minute.',
    });
  }
}
