import type { FieldType } from '../contacts/entities';
import { APPLICABLE, makeTest, passes, typeForValue, type Test } from './comparisons';
import type { EventTest, Predicate, ResolvedTree, ValueTarget } from './resolve';
import { readBoolean, readDate, readNumber, readText, valueAt } from './values';

/**
 * The in-memory face of the filter engine: pure, so that automation CONDITION steps can run it inside an
 * activity. It agrees with the SQL face (sql.ts) on every operator; test/filters proves it case by case.
 */

export interface ContactFacts {
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface EventFact {
  name: string;
  createdAt: Date;
}

export interface FilterInputs {
  contact: ContactFacts;
  /** The contact's events of the names the tree reads; the first and last of each name suffice. */
  events: readonly EventFact[];
  /** STATIC segments the contact is a member of. */
  staticSegments: ReadonlySet<string>;
  /** The contact's own choices of the topics the tree reads (topic id to member); a topic absent here takes its default. */
  topics?: ReadonlyMap<string, boolean>;
  /** A CONDITION step's execution context (trigger data, WAIT_FOR_EVENT data, a manual start's context). */
  context?: Record<string, unknown>;
}

type Typed = string | number | boolean | undefined;

const READERS: Record<FieldType, (v: unknown) => Typed> = {
  string: readText,
  number: readNumber,
  boolean: readBoolean,
  date: readDate,
};

function column(target: Extract<ValueTarget, { kind: 'column' }>, contact: ContactFacts): Typed {
  switch (target.column) {
    case 'email':
      return contact.email.toLowerCase();
    case 'subscribed':
      return contact.subscribed;
    case 'createdAt':
      return contact.createdAt.getTime();
    case 'updatedAt':
      return contact.updatedAt.getTime();
  }
}

function eventMatches(test: EventTest, name: string, events: readonly EventFact[], now: number): boolean {
  const named = events.filter((e) => e.name === name);
  if (test.op === 'ever') return named.length > 0;
  const recent = named.some((e) => e.createdAt.getTime() >= now - test.ms);
  return test.op === 'within' ? recent : named.length > 0 && !recent;
}

/** A context value is typed by itself (`typeForValue`). */
function contextTest(p: Extract<Predicate, { kind: 'context' }>, actual: unknown): { type: FieldType; test: Test } | undefined {
  const type = typeForValue(p.op, actual);
  if (!APPLICABLE[type].includes(p.op)) return undefined;
  const test = makeTest(type, p.op, p.value, p.duration);
  return typeof test === 'string' ? undefined : { type, test };
}

function holds(p: Predicate, inputs: FilterInputs, now: number): boolean {
  switch (p.kind) {
    case 'value': {
      const raw = p.target.kind === 'data' ? valueAt(inputs.contact.data, p.target.path) : undefined;
      const actual = p.target.kind === 'column' ? column(p.target, inputs.contact) : READERS[p.type](raw);
      const present = p.target.kind === 'column' || (raw !== undefined && raw !== null);
      return passes(p.test, actual, present, now) !== p.negate;
    }
    case 'context': {
      const raw = valueAt(inputs.context ?? {}, p.path);
      const present = raw !== undefined && raw !== null;
      const typed = present ? contextTest(p, raw) : undefined;
      const ok = p.op === 'exists' ? present : typed !== undefined && passes(typed.test, READERS[typed.type](raw), present, now);
      return ok !== p.negate;
    }
    case 'event':
      return eventMatches(p.test, p.name, inputs.events, now) !== p.negate;
    case 'topic':
      return (p.defaultIn !== null && (inputs.topics?.get(p.topicId) ?? p.defaultIn)) !== p.negate;
    case 'segment': {
      const { source } = p;
      const member =
        source.type === 'STATIC' ? inputs.staticSegments.has(p.segmentId) : source.type === 'DYNAMIC' && evaluate(source.tree, inputs, now);
      return member !== p.negate;
    }
  }
}

function evaluate(tree: ResolvedTree, inputs: FilterInputs, now: number): boolean {
  const group = (g: ResolvedTree['groups'][number]) =>
    g.predicates.every((p) => holds(p, inputs, now)) && (!g.conditions || evaluate(g.conditions, inputs, now));
  return tree.logic === 'AND' ? tree.groups.every(group) : tree.groups.some(group);
}

/** Whether the contact described by `inputs` matches `tree` at the instant `now`. */
export function evaluateFilter(tree: ResolvedTree, inputs: FilterInputs, now: Date): boolean {
  return evaluate(tree, inputs, now.getTime());
}

/** The contact of a tree that reads no contact (resolved `dataOnly`): none of its predicates looks at it. */
const NO_CONTACT: ContactFacts = { email: '', subscribed: false, data: {}, createdAt: new Date(0), updatedAt: new Date(0) };

/** Whether an event's `data` matches a tree resolved `dataOnly` (`event.<key>` value filters) at the instant `now`. */
export function evaluateData(tree: ResolvedTree, data: Record<string, unknown>, now: Date): boolean {
  return evaluate(tree, { contact: NO_CONTACT, events: [], staticSegments: new Set(), context: data }, now.getTime());
}
