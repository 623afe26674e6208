import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldType } from '../contacts/entities';
import type { FilterCatalog, StoredSegment } from './resolve';

/** The project's custom-field types, segments and topics, which filters resolve against. */
export async function loadCatalog(em: EntityManager, projectId: string): Promise<FilterCatalog> {
  // Plain rows: no entity is built for each of up to 1,000 fields.
  const fields = await em.execute<Array<{ key: string; type: FieldType }>>(
    'select "key", "type" from contact_fields where "project_id" = ?',
    [projectId],
  );
  // Read as rows, not through the segments module: segments build on filters, so filters may not import them.
  const segments = await em.execute<Array<StoredSegment & { id: string }>>(
    'select "id", "type", "condition" from segments where "project_id" = ?',
    [projectId],
  );
  // Topics likewise, as rows.
  const topics = await em.execute<Array<{ id: string; default_membership: string }>>(
    'select "id", "default_membership" from topics where "project_id" = ?',
    [projectId],
  );
  return {
    topics: new Map(topics.map((t) => [t.id, t.default_membership === 'IN'])),
    fieldTypes: new Map(fields.map((f) => [f.key, f.type])),
    segments: new Map(segments.map((s): [string, StoredSegment] => [s.id, { type: s.type, condition: s.condition }])),
  };
}
