import type { RequestBody } from '../api/types';

/**
 * The filter builder's picture of a filter tree (docs/filters.md): which operators each kind of field takes
 * and what value each operator needs, so that the builder only offers combinations the API accepts. The API
 * still checks every tree and its refusal is shown as it is.
 */
export type Tree = NonNullable<RequestBody<'/segments/count', 'post'>['condition']>;
export type ApiFilter = NonNullable<Tree['groups'][number]['filters']>[number];
export type Operator = ApiFilter['operator'];
export type Unit = NonNullable<ApiFilter['unit']>;
export type Logic = Tree['logic'];
export type FieldType = 'string' | 'number' | 'boolean' | 'date';

/** What a field names: a contact column or custom field (compared by type), an event, a segment or a topic. */
export type FieldKind = { kind: 'value'; type: FieldType } | { kind: 'event' } | { kind: 'segment' } | { kind: 'topic' };

export const UNITS: Array<{ value: Unit; label: string }> = [
  { value: 'minutes', label: 'minutes' },
  { value: 'hours', label: 'hours' },
  { value: 'days', label: 'days' },
];

const NEGATED: Partial<Record<Operator, Operator>> = { equals: 'notEquals', contains: 'notContains', exists: 'notExists' };
const ORDERINGS: Operator[] = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'];
const withNegations = (ops: Operator[]) => ops.flatMap((op) => [op, ...(NEGATED[op] ? [NEGATED[op]] : [])]);

/** docs/filters.md "Operators per type", each with its `not…` form. */
const VALUE_OPERATORS: Record<FieldType, Operator[]> = {
  string: withNegations(['equals', 'contains', 'exists']),
  number: withNegations(['equals', ...ORDERINGS, 'exists']),
  boolean: withNegations(['equals', 'exists']),
  date: withNegations(['equals', ...ORDERINGS, 'within', 'olderThan', 'exists']),
};
const EVENT_OPERATORS: Operator[] = ['triggered', 'notTriggered', 'triggeredWithin', 'notTriggeredWithin', 'triggeredOlderThan'];
const SEGMENT_OPERATORS: Operator[] = ['memberOfSegment', 'notMemberOfSegment'];
const TOPIC_OPERATORS: Operator[] = ['memberOfTopic', 'notMemberOfTopic'];

/** The operators that read a contact's events; on `event.<key>`, any other reads the execution context. */
export const isEventOperator = (op: Operator) => EVENT_OPERATORS.includes(op);

export function operatorsFor(kind: FieldKind): Operator[] {
  if (kind.kind === 'event') return EVENT_OPERATORS;
  if (kind.kind === 'segment') return SEGMENT_OPERATORS;
  if (kind.kind === 'topic') return TOPIC_OPERATORS;
  return VALUE_OPERATORS[kind.type];
}

export const OPERATOR_LABELS: Record<Operator, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  greaterThan: 'is greater than',
  lessThan: 'is less than',
  greaterThanOrEqual: 'is at least',
  lessThanOrEqual: 'is at most',
  exists: 'is set',
  notExists: 'is not set',
  within: 'is within the last',
  olderThan: 'is older than',
  triggered: 'happened',
  notTriggered: 'never happened',
  triggeredWithin: 'happened within the last',
  notTriggeredWithin: 'did not happen within the last',
  triggeredOlderThan: 'happened, but not within the last',
  memberOfSegment: 'is a member',
  notMemberOfSegment: 'is not a member',
  memberOfTopic: 'is in',
  notMemberOfTopic: 'is not in',
};

/** The value an operator takes: none, a duration (a count of `unit`), or a value of the field's type. */
export type ValueShape = 'none' | 'duration' | 'typed';

export function valueShape(op: Operator): ValueShape {
  if (
    [
      'exists',
      'notExists',
      'triggered',
      'notTriggered',
      'memberOfSegment',
      'notMemberOfSegment',
      'memberOfTopic',
      'notMemberOfTopic',
    ].includes(op)
  ) {
    return 'none';
  }
  if (['within', 'olderThan', 'triggeredWithin', 'notTriggeredWithin', 'triggeredOlderThan'].includes(op)) return 'duration';
  return 'typed';
}

/** The contact's own columns (docs/filters.md "Types"). */
export const COLUMNS: Array<{ field: string; label: string; type: FieldType }> = [
  { field: 'email', label: 'Email', type: 'string' },
  { field: 'subscribed', label: 'Subscribed', type: 'boolean' },
  { field: 'createdAt', label: 'Created', type: 'date' },
  { field: 'updatedAt', label: 'Updated', type: 'date' },
];

/** `email.<activity>` fields: the email lifecycle events. */
export const EMAIL_ACTIVITIES: Array<{ field: string; label: string }> = [
  { field: 'email.sent', label: 'Email sent' },
  { field: 'email.delivered', label: 'Email delivered' },
  { field: 'email.opened', label: 'Email opened' },
  { field: 'email.clicked', label: 'Email clicked' },
  { field: 'email.bounced', label: 'Email bounced' },
  { field: 'email.complained', label: 'Email marked as spam' },
];

/** One filter as the builder edits it: the value as typed, read as the field's type when sent. */
export interface FilterDraft {
  key: number;
  field: string;
  /** For `data.<path>` fields the project has no type for yet: the type its value is compared as. */
  valueType: FieldType;
  /** An `event.<key>` compared by value: it reads the execution context of a CONDITION step (docs/filters.md). */
  context: boolean;
  operator: Operator;
  value: string;
  unit: Unit;
}

export interface GroupDraft {
  key: number;
  filters: FilterDraft[];
  conditions?: TreeDraft;
}

export interface TreeDraft {
  logic: Logic;
  groups: GroupDraft[];
}

/** The API's bound on nesting (docs/filters.md "Shape"). */
export const MAX_DEPTH = 5;

let nextKey = 1;
export const newKey = () => nextKey++;

/** A new condition starts as one that already holds a count: subscribed contacts. */
export const newFilter = (): FilterDraft => ({
  key: newKey(),
  field: 'subscribed',
  valueType: 'boolean',
  context: false,
  operator: 'equals',
  value: 'true',
  unit: 'days',
});
export const newGroup = (): GroupDraft => ({ key: newKey(), filters: [newFilter()] });
export const newTree = (): TreeDraft => ({ logic: 'AND', groups: [newGroup()] });

/** The typed value to send: numbers as numbers, booleans as booleans, so a new data path compares by that type. */
function valueOut(f: FilterDraft, type: FieldType): unknown {
  const shape = valueShape(f.operator);
  if (shape === 'none') return undefined;
  const text = f.value.trim();
  if (text === '') return undefined;
  if (shape === 'duration' || type === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === 'boolean') return text === 'true';
  return f.value;
}

/** The tree to send; `typeOf` gives a field's type as the project knows it. */
export function toTree(draft: TreeDraft, typeOf: (field: string) => FieldType | undefined): Tree {
  return {
    logic: draft.logic,
    groups: draft.groups.map((g) => ({
      filters: g.filters.map((f) => {
        const value = valueOut(f, typeOf(f.field) ?? f.valueType);
        return {
          field: f.field,
          operator: f.operator,
          ...(value !== undefined ? { value } : {}),
          ...(valueShape(f.operator) === 'duration' ? { unit: f.unit } : {}),
        };
      }),
      ...(g.conditions ? { conditions: toTree(g.conditions, typeOf) as Tree['groups'][number]['conditions'] } : {}),
    })),
  } as Tree;
}

/**
 * Whether a filter still lacks a part the API requires (a field, a value, a name after `event.`): the live
 * counts wait for it rather than ask the API and be refused while someone is typing.
 */
export function unfinished(tree: Tree): boolean {
  return tree.groups.some(
    (g) =>
      (g.filters ?? []).some(
        (f) =>
          !f.field ||
          /\.$/.test(f.field) ||
          (valueShape(f.operator) !== 'none' &&
            (f.value === undefined || f.value === '' || (typeof f.value === 'number' && !Number.isFinite(f.value)))),
      ) || (g.conditions ? unfinished(g.conditions as Tree) : false),
  );
}

function typeOfValue(value: unknown): FieldType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? 'date' : 'string';
}

/** A tree as the API answers or takes it (its `unit` typed loosely, `filters` optional as a request may leave them). */
interface LooseTree {
  logic: Logic;
  groups: Array<{ filters?: Array<{ field: string; operator: Operator; value?: unknown; unit?: unknown }>; conditions?: LooseTree | null }>;
}

/** A stored value as the builder's input shows it: filter values are strings, numbers or booleans. */
const textOf = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

const unitOf = (unit: unknown): Unit => UNITS.find((u) => u.value === unit)?.value ?? 'days';

/** A stored tree as the builder edits it. */
export function fromTree(tree: LooseTree): TreeDraft {
  return {
    logic: tree.logic,
    groups: tree.groups.map((g) => ({
      key: newKey(),
      filters: (g.filters ?? []).map((f) => ({
        key: newKey(),
        field: f.field,
        valueType: typeOfValue(f.value),
        context: f.field.startsWith('event.') && !isEventOperator(f.operator),
        operator: f.operator,
        value: textOf(f.value),
        unit: unitOf(f.unit),
      })),
      ...(g.conditions ? { conditions: fromTree(g.conditions) } : {}),
    })),
  };
}

/** The tree with `filter` also required: added to every group, so that whatever the logic, each way to match needs it. */
export function andAlso(tree: Tree, filter: ApiFilter): Tree {
  return { ...tree, groups: tree.groups.map((g) => ({ ...g, filters: [...(g.filters ?? []), filter] })) };
}
