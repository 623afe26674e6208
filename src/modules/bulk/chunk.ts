import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteContacts, setSubscriptions, type BatchOutcome } from '../contacts/write-batch';
import { suppressionsOf, type Suppression } from '../contacts/suppression';
import { InvalidChunkError } from '../jobs/errors';
import type { ChunkOutcome } from '../jobs/store';
import { StoredBulkChunk } from './schemas';

/** What a skipped contact's entry in the job's `errors` says (docs/contacts.md "Suppression on a contact"). */
const suppressedError = (s: Suppression) =>
  s.reason === 'BOUNCE'
    ? 'Suppressed: the address bounced permanently; not subscribed (subscribe it on its own page if it works again)'
    : 'Suppressed: the recipient marked an email as spam; not subscribed';

interface Applied extends BatchOutcome {
  /** Contacts a bulk subscribe left alone because their address is suppressed. */
  suppressed: Map<string, Suppression>;
}

async function apply(tx: EntityManager, projectId: string, chunk: StoredBulkChunk): Promise<Applied> {
  switch (chunk.operation) {
    case 'subscribe': {
      // A bounced or complaining address is not subscribed again in bulk: that would mail it again.
      const suppressed = await suppressionsOf(tx, projectId, chunk.contactIds);
      const outcome = await setSubscriptions(
        tx,
        projectId,
        chunk.contactIds.filter((id) => !suppressed.has(id)),
        true,
      );
      return { ...outcome, suppressed };
    }
    case 'unsubscribe':
      return { ...(await setSubscriptions(tx, projectId, chunk.contactIds, false)), suppressed: new Map() };
    case 'delete':
      return { ...(await deleteContacts(tx, projectId, chunk.contactIds)), suppressed: new Map() };
  }
}

/**
 * Applies one chunk of a bulk job. IDs that are not the project's contacts are failures and stay untouched; so
 * are suppressed contacts in a bulk subscribe, each named in `errors` with the reason.
 */
export async function applyBulkChunk(tx: EntityManager, projectId: string, items: unknown): Promise<ChunkOutcome> {
  const parsed = StoredBulkChunk.safeParse(items);
  if (!parsed.success) throw new InvalidChunkError(`stored contact IDs do not read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const outcome = await apply(tx, projectId, parsed.data);
  return {
    processed: parsed.data.contactIds.length,
    counts: {
      successCount: outcome.changed.length,
      unchangedCount: outcome.unchanged.length,
      failureCount: outcome.missing.length + outcome.suppressed.size,
    },
    errors: [
      ...outcome.missing.map((contactId) => ({ contactId, error: 'Contact not found' })),
      ...[...outcome.suppressed].map(([contactId, s]) => ({ contactId, error: suppressedError(s) })),
    ],
  };
}
