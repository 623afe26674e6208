import { api, call } from '../api/client';
import type { FilterCatalog } from './builder';
import type { FieldType } from './model';

/** Other segments a filter can name: every segment but the one being edited (which would be a cycle). */
async function segmentsBut(segmentId?: string): Promise<FilterCatalog['segments']> {
  const segments = await call(api.GET('/segments'));
  return segments.filter((s) => s.id !== segmentId).map((s) => ({ id: s.id, name: s.name }));
}

/** The project's topics (at most 100, one page). */
async function topics(): Promise<FilterCatalog['topics']> {
  const page = await call(api.GET('/topics', { params: { query: { limit: 100 } } }));
  return page.data.map((t) => ({ id: t.id, name: t.name }));
}

/** What a segment's or an audience's filter can name: custom fields, event names, segments and topics. */
export async function contactCatalog(segmentId?: string): Promise<FilterCatalog> {
  const [fields, events, segments, known] = await Promise.all([
    call(api.GET('/contacts/fields')),
    call(api.GET('/events/names')),
    segmentsBut(segmentId),
    topics(),
  ]);
  return {
    fields: fields.fields.filter((f) => f.isCustom).map((f) => ({ field: f.field, type: f.type })),
    events: events.names.map((n) => n.name),
    segments,
    topics: known,
  };
}

/** What a CONDITION step's filter can name (GET /workflows/fields): the same, and the execution context's keys. */
export async function workflowCatalog(): Promise<FilterCatalog> {
  const [{ fields }, segments, known] = await Promise.all([call(api.GET('/workflows/fields')), segmentsBut(), topics()]);
  const typed = (type: FieldType | 'event'): type is FieldType => type !== 'event';
  const valued = (category: string) =>
    fields.flatMap((f) => (f.category === category && typed(f.type) ? [{ field: f.field, type: f.type }] : []));
  return {
    fields: valued('contact').filter((f) => f.field.startsWith('data.')),
    events: fields.filter((f) => f.category === 'event').map((f) => f.field.slice('event.'.length)),
    segments,
    topics: known,
    context: valued('eventData'),
  };
}
