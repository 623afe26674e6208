import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldType } from '../contacts/entities';
import { Segment } from '../segments/entities';
import type { FilterCatalog, StoredSegment } from './resolve';

/** The project's custom-field types and segments, which filters resolve against. */
export async function loadCatalog(em: EntityManager, projectId: string): Promise<FilterCatalog> {
  // Plain rows: no entity is built for each of up to 1,000 fields.
  const fields = await em.execute<Array<{ key: string; type: FieldType }>>('select "key", "type" from contact_fields where "project_id" = ?', [projectId]);
  const segments = await em.find(Segment, { projectId }, { fields: ['id', 'type', 'condition'] });
  return {
    fieldTypes: new Map(fields.map((f) => [f.key, f.type])),
    segments: new Map(segments.map((s): [string, StoredSegment] => [s.id, { type: s.type, condition: s.condition }])),
  };
}
