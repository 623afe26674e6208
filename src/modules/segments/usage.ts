import { filterFields } from '../usage/filter-tree';
import { filterFieldOf, type ReferenceSource } from '../usage/references';
import { Segment } from './entities';

/** Segments whose condition names the field or event (GET /contacts/fields/{field}/usage, /events/{name}/usage). */
export const segmentReferences: ReferenceSource = {
  area: 'segments',
  async find(em, projectId, subject) {
    const wanted = filterFieldOf(subject);
    const segments = await em.find(Segment, { projectId }, { orderBy: { createdAt: 'desc' } });
    return segments.filter((s) => filterFields(s.condition).includes(wanted)).map((s) => ({ id: s.id, name: s.name }));
  },
};
