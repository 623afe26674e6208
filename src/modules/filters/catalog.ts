import type { EntityManager } from '@mikro-orm/postgresql';
import { ContactField } from '../contacts/entities';
import { Segment } from '../segments/entities';
import type { FilterCatalog, StoredSegment } from './resolve';

/** The project's custom-field types and segments, which filters resolve against. */
export async function loadCatalog(em: EntityManager, projectId: string): Promise<FilterCatalog> {
  const fields = await em.find(ContactField, { projectId });
  const segments = await em.find(Segment, { projectId }, { fields: ['id', 'type', 'condition'] });
  return {
    fieldTypes: new Map(fields.map((f) => [f.key, f.type])),
    segments: new Map(segments.map((s): [string, StoredSegment] => [s.id, { type: s.type, condition: s.condition }])),
  };
}
