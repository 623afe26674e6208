import type { FieldType } from '../contacts/entities';
import type { SegmentType } from '../segments/entities';
import { FilterError } from './errors';
import { APPLICABLE, VALUE_OPERATORS, durationMs, makeTest, typeForValue, type Test, type ValueOp } from './comparisons';
import { parseField, type ContactColumn, CONTACT_COLUMNS } from './fields';
import { FilterTreeSchema, UNITS, type Filter, type FilterTree, type Logic, type Operator } from './schemas';

export type ValueTarget = { kind: 'column'; column: ContactColumn } | { kind: 'data'; path: string[] };

/** `triggered`: any occurrence; `within`: one in the last `ms`; `onlyBefore`: some, but none in the last `ms`. */
export type EventTest = { op: 'ever' } | { op: 'within'; ms: number } | { op: 'onlyBefore'; ms: number };

export type SegmentSource = { type: 'STATIC' } | { type: 'DYNAMIC'; tree: ResolvedTree } | { type: 'MISSING' };

export type Predicate =
  | { kind: 'value'; target: ValueTarget; type: FieldType; test: Test; negate: boolean }
  /** CONDITION steps: a key of the execution context, typed by the value found there. */
  | { kind: 'context'; path: string[]; op: ValueOp; value: unknown; duration: number; negate: boolean }
  | { kind: 'event'; name: string; test: EventTest; negate: boolean }
  | { kind: 'segment'; segmentId: string; source: SegmentSource; negate: boolean }
  /** `defaultIn` null: a topic the project no longer has, which has no members. */
  | { kind: 'topic'; topicId: string; defaultIn: boolean | null; negate: boolean };

export interface ResolvedGroup {
  predicates: Predicate[];
  conditions?: ResolvedTree;
}

/** A checked tree with field types and referenced segments filled in; both faces evaluate this. */
export interface ResolvedTree {
  logic: Logic;
  groups: ResolvedGroup[];
}

export interface StoredSegment {
  type: SegmentType;
  condition: unknown;
}

/** What a project knows that a tree may name: its custom-field types, its segments and its topics. */
export interface FilterCatalog {
  fieldTypes: ReadonlyMap<string, FieldType>;
  segments: ReadonlyMap<string, StoredSegment>;
  /** Each topic's default: whether a contact that never chose is in it. */
  topics?: ReadonlyMap<string, boolean>;
}

export interface ResolveOptions {
  /**
   * For trees being saved: reject segments the project does not know and filters their field's type cannot
   * compare. Stored trees resolve leniently.
   */
  strict?: boolean;
  /** CONDITION steps: `event.<key>` with a value operator reads the execution context. */
  context?: boolean;
  /**
   * A tree on an event's data alone (an automation's goal): only `event.<key>` with a value operator, which reads
   * the data as the context (`evaluateData`); any other filter is refused, strict or not.
   */
  dataOnly?: boolean;
  /** The segment this tree belongs to, so that it cannot reach itself. */
  segmentId?: string;
}

const EVENT_OPERATORS: Partial<Record<Operator, { test: 'ever' | 'within' | 'onlyBefore'; negate: boolean }>> = {
  triggered: { test: 'ever', negate: false },
  notTriggered: { test: 'ever', negate: true },
  triggeredWithin: { test: 'within', negate: false },
  notTriggeredWithin: { test: 'within', negate: true },
  triggeredOlderThan: { test: 'onlyBefore', negate: false },
};

const MEMBER_OPERATORS: Partial<Record<Operator, boolean>> = { memberOfSegment: false, notMemberOfSegment: true };
const TOPIC_OPERATORS: Partial<Record<Operator, boolean>> = { memberOfTopic: false, notMemberOfTopic: true };

const TIMED = new Set<Operator>(['within', 'olderThan', 'triggeredWithin', 'notTriggeredWithin', 'triggeredOlderThan']);

/** The tree as the schema reads it (unknown keys dropped); throws FilterError naming the first problem. */
export function parseFilterTree(input: unknown, at = ''): FilterTree {
  const parsed = FilterTreeSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new FilterError(issue.message, [at, ...issue.path.map(String)].filter(Boolean).join('.'));
}

const isMissing = (v: unknown) => v === undefined || v === null;

class Resolver {
  constructor(
    private readonly catalog: FilterCatalog,
    private readonly strict: boolean,
    private readonly context: boolean,
    private readonly dataOnly = false,
  ) {}

  tree(input: unknown, at: string, chain: readonly string[]): ResolvedTree {
    return this.checked(parseFilterTree(input, at), at, chain);
  }

  private checked(tree: FilterTree, at: string, chain: readonly string[]): ResolvedTree {
    const prefix = at ? `${at}.` : '';
    return {
      logic: tree.logic,
      groups: tree.groups.map((group, i) => ({
        predicates: group.filters.map((f, j) => this.filter(f, `${prefix}groups.${i}.filters.${j}`, chain)),
        ...(group.conditions ? { conditions: this.checked(group.conditions, `${prefix}groups.${i}.conditions`, chain) } : {}),
      })),
    };
  }

  private filter(f: Filter, at: string, chain: readonly string[]): Predicate {
    const ref = parseField(f.field);
    if (!ref) throw new FilterError(`Unknown field "${f.field}"`, `${at}.field`);
    const misuse = (accepted: string) =>
      new FilterError(`Operator "${f.operator}" does not apply to ${f.field}; use ${accepted}`, `${at}.operator`);

    if (TIMED.has(f.operator) && !f.unit) {
      throw new FilterError(`Operator "${f.operator}" on ${f.field} needs a unit (${UNITS.join(', ')})`, `${at}.unit`);
    }
    const value = VALUE_OPERATORS[f.operator];
    const needsValue = TIMED.has(f.operator) || (value !== undefined && value.op !== 'exists');
    if (needsValue && isMissing(f.value)) {
      throw new FilterError(`Operator "${f.operator}" on ${f.field} needs a value`, `${at}.value`);
    }
    const duration = f.unit && TIMED.has(f.operator) ? durationMs(f.value, f.unit) : 0;
    if (typeof duration === 'string') throw new FilterError(`${f.field}: ${duration}`, `${at}.value`);

    if (this.dataOnly && !(ref.kind === 'event' && value)) {
      throw new FilterError(
        `${f.field} ${f.operator} does not read the event's data; use event.<key> with a value operator (equals, greaterThan, contains, exists, …)`,
        `${at}.field`,
      );
    }
    const event = EVENT_OPERATORS[f.operator];
    const member = MEMBER_OPERATORS[f.operator];
    const topicMember = TOPIC_OPERATORS[f.operator];
    switch (ref.kind) {
      case 'column':
      case 'data':
        if (!value) throw misuse('a value operator (equals, contains, greaterThan, exists, within, …)');
        return this.comparison(ref, value, f, at, duration);
      case 'event':
        if (event) return { kind: 'event', name: ref.name, test: eventTest(event.test, duration), negate: event.negate };
        if (value && this.context) {
          return { kind: 'context', path: ref.name.split('.'), op: value.op, value: f.value, duration, negate: value.negate };
        }
        throw misuse(
          this.context
            ? 'a value or triggered operator'
            : 'triggered, triggeredWithin, triggeredOlderThan, notTriggered or notTriggeredWithin',
        );
      case 'emailActivity':
        if (!event) throw misuse('triggered, triggeredWithin, triggeredOlderThan, notTriggered or notTriggeredWithin');
        return { kind: 'event', name: ref.eventName, test: eventTest(event.test, duration), negate: event.negate };
      case 'segment':
        if (member === undefined) throw misuse('memberOfSegment or notMemberOfSegment');
        return { kind: 'segment', segmentId: ref.segmentId, source: this.segment(ref.segmentId, f, at, chain), negate: member };
      case 'topic': {
        if (topicMember === undefined) throw misuse('memberOfTopic or notMemberOfTopic');
        const defaultIn = this.catalog.topics?.get(ref.topicId) ?? null;
        if (defaultIn === null && this.strict) throw new FilterError(`Unknown topic in field "${f.field}"`, `${at}.field`);
        return { kind: 'topic', topicId: ref.topicId, defaultIn, negate: topicMember };
      }
    }
  }

  /**
   * A value filter on a column or a data path. A path no contact of the project has yet compares by the
   * filter's value (docs/filters.md "Choices"); once the project infers its type, by that type. A tree being saved
   * is told when the type cannot compare the filter. A stored tree's data path may have been typed (or its
   * type deleted and inferred afresh) since it was saved: a filter that type cannot compare matches nothing,
   * as a stored value that does not read as its field's type takes part in no comparison.
   */
  private comparison(ref: ValueTarget, value: { op: ValueOp; negate: boolean }, f: Filter, at: string, duration: number): Predicate {
    const inferred = ref.kind === 'column' ? CONTACT_COLUMNS[ref.column] : this.catalog.fieldTypes.get(ref.path.join('.'));
    const type = inferred ?? typeForValue(value.op, f.value);
    const typedBy = inferred ? '' : ` (compared as ${type}, the type of its value, until a contact of the project has it)`;
    let problem: FilterError;
    if (APPLICABLE[type].includes(value.op)) {
      const test = makeTest(type, value.op, f.value, duration, ref.kind === 'column' && ref.column === 'email');
      if (typeof test !== 'string') return { kind: 'value', target: ref, type, test, negate: value.negate };
      problem = new FilterError(`${f.field}: ${test}${typedBy}`, `${at}.value`);
    } else {
      const accepted = `one of the operators for ${type} fields: ${APPLICABLE[type].join(', ')} (and their negations)`;
      problem = new FilterError(`Operator "${f.operator}" does not apply to ${f.field}${typedBy}; use ${accepted}`, `${at}.operator`);
    }
    if (this.strict || ref.kind === 'column') throw problem;
    return { kind: 'value', target: ref, type, test: { op: 'none' }, negate: value.negate };
  }

  private segment(id: string, f: Filter, at: string, chain: readonly string[]): SegmentSource {
    if (chain.includes(id)) {
      throw new FilterError(`Segment references form a cycle: ${[...chain, id].join(' → ')}`, `${at}.field`);
    }
    const stored = this.catalog.segments.get(id);
    if (!stored) {
      if (this.strict) throw new FilterError(`Unknown segment in field "${f.field}"`, `${at}.field`);
      return { type: 'MISSING' };
    }
    if (stored.type === 'STATIC') return { type: 'STATIC' };
    // A referenced segment was checked when it was saved; only cycles and its own references matter now.
    const nested = new Resolver(this.catalog, false, false);
    try {
      return { type: 'DYNAMIC', tree: nested.tree(stored.condition, '', [...chain, id]) };
    } catch (err) {
      if (err instanceof FilterError) throw new FilterError(err.message, `${at}.field`);
      throw err;
    }
  }
}

function eventTest(op: EventTest['op'], ms: number): EventTest {
  return op === 'ever' ? { op } : { op, ms };
}

/** Checks a filter tree and resolves it against the project's catalog; throws FilterError naming the problem. */
export function resolveFilter(input: unknown, catalog: FilterCatalog, options: ResolveOptions = {}): ResolvedTree {
  const resolver = new Resolver(
    catalog,
    options.strict ?? false,
    (options.context ?? false) || (options.dataOnly ?? false),
    options.dataOnly,
  );
  return resolver.tree(input, '', options.segmentId ? [options.segmentId] : []);
}
