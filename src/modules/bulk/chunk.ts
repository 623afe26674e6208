import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteContacts, setSubscriptions, type BatchOutcome } from '../contacts/write-batch';
import { InvalidChunkError } from '../jobs/errors';
import type { ChunkOutcome } from '../jobs/store';
import { StoredBulkChunk } from './schemas';

function apply(tx: EntityManager, projectId: string, chunk: StoredBulkChunk): Promise<BatchOutcome> {
  switch (chunk.operation) {
    case 'subscribe':
      return setSubscriptions(tx, projectId, chunk.contactIds, true);
    case 'unsubscribe':
      return setSubscriptions(tx, projectId, chunk.contactIds, false);
    case 'delete':
      return deleteContacts(tx, projectId, chunk.contactIds);
  }
}

/** Applies one chunk of a bulk job; IDs that are not the project's contacts are failures and stay untouched. */
export async function applyBulkChunk(tx: EntityManager, projectId: string, items: unknown): Promise<ChunkOutcome> {
  const parsed = StoredBulkChunk.safeParse(items);
  if (!parsed.success) throw new InvalidChunkError(`stored contact IDs do not read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const outcome = await apply(tx, projectId, parsed.data);
  return {
    processed: parsed.data.contactIds.length,
    counts: { successCount: outcome.changed.length, unchangedCount: outcome.unchanged.length, failureCount: outcome.missing.length },
    errors: outcome.missing.map((contactId) => ({ contactId, error: 'Contact not found' })),
  };
}
