import type { EntityManager } from '@mikro-orm/postgresql';
import { toDataPatch, type DataInput } from '../contacts/custom-fields';
import { upsertResultOf, type UpsertResult } from '../contacts/write';
import type { TrackBatcher } from './track-batch';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: DataInput;
}

/**
 * `/v1/track`: upserts the contact (new ones subscribed unless told otherwise) and records the event, with
 * any subscription flip, in one statement. The event carries the data as sent, request-only values
 * included, so that the workflows it triggers can use them. The statement is shared with concurrent tracks
 * (`batcher`), so a track commits on its own, never in a caller's transaction.
 */
export async function trackEvent(
  em: EntityManager,
  projectId: string,
  input: TrackInput,
  batcher: TrackBatcher,
): Promise<UpsertResult & { event: NonNullable<UpsertResult['event']> }> {
  const { set, variables } = toDataPatch(input.data);
  const options = { defaultSubscribed: true, event: { name: input.event, data: { ...set, ...variables } } };
  const row = await batcher.write({ projectId, input, options });
  const result = upsertResultOf(em, row, input, options);
  if (!result.event) throw new Error('the tracked event was not recorded');
  return { ...result, event: result.event };
}
