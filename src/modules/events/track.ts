import type { EntityManager } from '@mikro-orm/postgresql';
import { toDataPatch, type DataInput } from '../contacts/custom-fields';
import { upsertContact, type UpsertResult } from '../contacts/write';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: DataInput;
}

/**
 * `/v1/track`: upserts the contact (new ones subscribed unless told otherwise) and records the event, with
 * any subscription flip, in one statement. The event carries the data as sent, request-only values
 * included, so that the workflows it triggers can use them.
 */
export async function trackEvent(em: EntityManager, projectId: string, input: TrackInput): Promise<UpsertResult & { event: NonNullable<UpsertResult['event']> }> {
  const { set, variables } = toDataPatch(input.data);
  const result = await upsertContact(em, projectId, input, { defaultSubscribed: true, event: { name: input.event, data: { ...set, ...variables } } });
  if (!result.event) throw new Error('the tracked event was not recorded');
  return { ...result, event: result.event };
}
