import type { FieldType } from '../contacts/entities';
import type { Operator, Unit } from './schemas';
import { readBoolean, readDate, readNumber, typeOfValue } from './values';

/** The positive form of each value operator; `not…` operators are exact complements of theirs. */
export type ValueOp =
  'equals' | 'contains' | 'exists' | 'within' | 'olderThan' | 'greaterThan' | 'lessThan' | 'greaterThanOrEqual' | 'lessThanOrEqual';
export type Ordering = Extract<ValueOp, 'greaterThan' | 'lessThan' | 'greaterThanOrEqual' | 'lessThanOrEqual'>;

export const VALUE_OPERATORS: Partial<Record<Operator, { op: ValueOp; negate: boolean }>> = {
  equals: { op: 'equals', negate: false },
  notEquals: { op: 'equals', negate: true },
  contains: { op: 'contains', negate: false },
  notContains: { op: 'contains', negate: true },
  greaterThan: { op: 'greaterThan', negate: false },
  lessThan: { op: 'lessThan', negate: false },
  greaterThanOrEqual: { op: 'greaterThanOrEqual', negate: false },
  lessThanOrEqual: { op: 'lessThanOrEqual', negate: false },
  exists: { op: 'exists', negate: false },
  notExists: { op: 'exists', negate: true },
  within: { op: 'within', negate: false },
  olderThan: { op: 'olderThan', negate: false },
};

const ORDERINGS: readonly Ordering[] = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual'];
export const isOrdering = (op: ValueOp): op is Ordering => (ORDERINGS as readonly ValueOp[]).includes(op);

/** Which operators make sense for a field of each type. */
export const APPLICABLE: Record<FieldType, readonly ValueOp[]> = {
  string: ['equals', 'contains', 'exists'],
  number: ['equals', 'exists', ...ORDERINGS],
  boolean: ['equals', 'exists'],
  date: ['equals', 'exists', 'within', 'olderThan', ...ORDERINGS],
};

/**
 * The type a comparison takes when nothing else types it: a data path no contact has yet compares by the
 * filter's value, an execution-context key by the value found there (docs/filters.md "Choices"). The value's own
 * type, except where the operator settles it: `within`/`olderThan` take a duration and compare dates,
 * `contains` compares text, and a numeric string under an ordering is a number.
 */
export function typeForValue(op: ValueOp, value: unknown): FieldType {
  if (op === 'within' || op === 'olderThan') return 'date';
  if (op === 'contains') return 'string';
  const own = typeOfValue(value);
  return own === 'string' && isOrdering(op) && readNumber(value) !== undefined ? 'number' : own;
}

/**
 * One comparison with its operand already read as the field's type (dates as epoch milliseconds).
 * Dates are `equal` on the same UTC day, as the established platform compares them. `none` is a stored
 * filter that its field's type, inferred after the filter was saved, cannot compare: it matches nothing.
 */
export type Test =
  | { op: 'exists' }
  | { op: 'none' }
  | { op: 'equals'; value: string | number | boolean }
  | { op: 'sameDay'; from: number; to: number }
  | { op: 'contains'; value: string }
  | { op: Ordering; value: number }
  | { op: 'within' | 'olderThan'; ms: number };

export const UNIT_MS: Record<Unit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
const MAX_DURATION_MS = 100 * 365 * UNIT_MS.days;
const DAY_MS = UNIT_MS.days;

/** Milliseconds of `value` `unit`s, or the reason it is not a usable duration. */
export function durationMs(value: unknown, unit: Unit): number | string {
  const n = readNumber(value);
  if (n === undefined || n <= 0) return `value must be a positive number of ${unit}`;
  const ms = n * UNIT_MS[unit];
  return ms > MAX_DURATION_MS ? 'value must be at most 100 years' : ms;
}

const DATE_FORMS = 'YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.sss]Z';

/**
 * The test of `op` against a field of `type`, with the filter's value read as that type, or the reason the
 * value does not fit. `within` and `olderThan` take the duration already checked by the caller.
 */
export function makeTest(type: FieldType, op: ValueOp, value: unknown, duration: number, caseInsensitive = false): Test | string {
  if (op === 'exists') return { op };
  if (op === 'within' || op === 'olderThan') return { op, ms: duration };
  switch (type) {
    case 'string': {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return 'value must be a string';
      const text = caseInsensitive ? String(value).toLowerCase() : String(value);
      return op === 'contains' ? { op, value: text } : { op: 'equals', value: text };
    }
    case 'boolean': {
      const b = readBoolean(value);
      return b === undefined ? 'value must be true or false' : { op: 'equals', value: b };
    }
    case 'number': {
      const n = readNumber(value);
      if (n === undefined) return 'value must be a number';
      return isOrdering(op) ? { op, value: n } : { op: 'equals', value: n };
    }
    case 'date': {
      const ms = readDate(value);
      if (ms === undefined) return `value must be a date (${DATE_FORMS})`;
      if (isOrdering(op)) return { op, value: ms };
      const from = Math.floor(ms / DAY_MS) * DAY_MS;
      return { op: 'sameDay', from, to: from + DAY_MS };
    }
  }
}

/** The in-memory face of a test: `actual` is the field's value read as its type, undefined when it does not read. */
export function passes(test: Test, actual: string | number | boolean | undefined, present: boolean, now: number): boolean {
  if (test.op === 'exists') return present;
  if (actual === undefined || test.op === 'none') return false;
  switch (test.op) {
    case 'equals':
      return actual === test.value;
    case 'contains':
      return typeof actual === 'string' && actual.includes(test.value);
    case 'sameDay':
      return typeof actual === 'number' && actual >= test.from && actual < test.to;
    case 'within':
      return typeof actual === 'number' && actual >= now - test.ms;
    case 'olderThan':
      return typeof actual === 'number' && actual < now - test.ms;
    case 'greaterThan':
      return typeof actual === 'number' && actual > test.value;
    case 'lessThan':
      return typeof actual === 'number' && actual < test.value;
    case 'greaterThanOrEqual':
      return typeof actual === 'number' && actual >= test.value;
    case 'lessThanOrEqual':
      return typeof actual === 'number' && actual <= test.value;
  }
}
