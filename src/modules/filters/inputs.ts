import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../contacts/entities';
import type { EventFact, FilterInputs } from './evaluate';
import type { ResolvedTree } from './resolve';

/** Event names, STATIC segments and topics a tree reads, through the dynamic segments it names. */
function references(tree: ResolvedTree, into = { events: new Set<string>(), segments: new Set<string>(), topics: new Set<string>() }) {
  for (const group of tree.groups) {
    for (const p of group.predicates) {
      if (p.kind === 'event') into.events.add(p.name);
      if (p.kind === 'topic') into.topics.add(p.topicId);
      if (p.kind === 'segment' && p.source.type === 'STATIC') into.segments.add(p.segmentId);
      if (p.kind === 'segment' && p.source.type === 'DYNAMIC') references(p.source.tree, into);
    }
    if (group.conditions) references(group.conditions, into);
  }
  return into;
}

interface EventSpan {
  name: string;
  first: Date;
  last: Date;
}

/**
 * What the in-memory face needs to evaluate `tree` for one contact: the contact, the first and last event of
 * each name the tree reads (enough for every triggered* operator) and its STATIC memberships. Null when the
 * contact is not in the project.
 */
export async function loadFilterInputs(
  em: EntityManager,
  projectId: string,
  contactId: string,
  tree: ResolvedTree,
  context?: Record<string, unknown>,
): Promise<FilterInputs | null> {
  const contact = await em.findOne(Contact, { id: contactId, projectId });
  if (!contact) return null;
  const { events, segments, topics } = references(tree);
  const spans: EventSpan[] = events.size
    ? await em.execute(
        `select name, min(created_at) as first, max(created_at) as last from events
         where contact_id = ? and name in (select jsonb_array_elements_text(?::jsonb)) group by name`,
        [contactId, JSON.stringify([...events])],
      )
    : [];
  const memberships: Array<{ segment_id: string }> = segments.size
    ? await em.execute(
        `select segment_id from segment_members
         where contact_id = ? and segment_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
        [contactId, JSON.stringify([...segments])],
      )
    : [];
  const choices: Array<{ topic_id: string; member: boolean }> = topics.size
    ? await em.execute(
        `select topic_id, member from contact_topics
         where contact_id = ? and topic_id in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
        [contactId, JSON.stringify([...topics])],
      )
    : [];
  return {
    contact,
    events: spans.flatMap((s): EventFact[] => [
      { name: s.name, createdAt: new Date(s.first) },
      { name: s.name, createdAt: new Date(s.last) },
    ]),
    staticSegments: new Set(memberships.map((m) => m.segment_id)),
    topics: new Map(choices.map((c) => [c.topic_id, c.member])),
    ...(context ? { context } : {}),
  };
}
