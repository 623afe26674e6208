import type { EntityManager } from '@mikro-orm/postgresql';
import { recordFieldTypes } from '../contacts/custom-fields';
import { upsertContacts } from '../contacts/write-batch';
import { InvalidChunkError } from '../jobs/errors';
import { admitFields } from './field-room';
import type { ChunkOutcome } from '../jobs/store';
import { StoredImportChunk } from './schemas';

/**
 * Writes one staged chunk of an import: every contact of it in one statement, under the custom-field
 * rules and subscription flips of the contacts module. New contacts are subscribed unless their row says
 * otherwise, as with POST /contacts.
 */
export async function applyImportChunk(tx: EntityManager, projectId: string, items: unknown): Promise<ChunkOutcome> {
  const parsed = StoredImportChunk.safeParse(items);
  if (!parsed.success) throw new InvalidChunkError(`stored import rows do not read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const { rows: staged, skipped, errors: stagedErrors, fieldTypes: stagedTypes } = parsed.data;
  const { rows, refused, fieldTypes } = await admitFields(tx, projectId, staged, stagedTypes);
  if (fieldTypes) await recordFieldTypes(tx, projectId, fieldTypes);
  const written = await upsertContacts(tx, projectId, rows, { defaultSubscribed: true });
  const created = written.filter((w) => w.isNew).length;
  const errors = [...stagedErrors, ...refused].sort((a, b) => a.row - b.row);
  return {
    processed: staged.length + skipped + stagedErrors.length,
    counts: { created, updated: written.length - created, skipped, failed: errors.length },
    errors,
  };
}
