import { z } from 'zod';

/** The full sets of fields, operators and units (docs/filters.md "Choices"). */
export const LOGICS = ['AND', 'OR'] as const;
export const OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'exists',
  'notExists',
  'within',
  'olderThan',
  'triggered',
  'triggeredWithin',
  'triggeredOlderThan',
  'notTriggered',
  'notTriggeredWithin',
  'memberOfSegment',
  'notMemberOfSegment',
  'memberOfTopic',
  'notMemberOfTopic',
] as const;
export const UNITS = ['minutes', 'hours', 'days'] as const;

export type Logic = (typeof LOGICS)[number];
export type Operator = (typeof OPERATORS)[number];
export type Unit = (typeof UNITS)[number];

export interface Filter {
  field: string;
  operator: Operator;
  value?: unknown;
  unit?: Unit;
}

export interface FilterGroup {
  filters: Filter[];
  conditions?: FilterTree;
}

export interface FilterTree {
  logic: Logic;
  groups: FilterGroup[];
}

/**
 * How deeply `conditions` may nest. A fixed bound keeps the documented schema free of self-references
 * (which OpenAPI cannot place inline) and keeps evaluation of hostile trees shallow.
 */
export const MAX_NESTING = 5;
const MAX_ITEMS = 100;

const named = (what: string, allowed: readonly string[]) => (issue: { input?: unknown }) =>
  issue.input === undefined
    ? `${what} is required`
    : `Unknown ${what} ${JSON.stringify(issue.input)}; expected one of ${allowed.join(', ')}`;

const FilterSchema = z.object({
  // Without NUL, which the body pipeline refuses before the tree is read: the document says so (docs/openapi.md).
  field: z
    .string({ error: 'field is required' })
    .min(1, 'field is required')
    .max(500)
    .regex(/^[^\u0000]*$/),
  operator: z.enum(OPERATORS, { error: named('operator', OPERATORS) }),
  value: z.unknown().optional().describe('string, number or boolean; a count of `unit` for the time operators'),
  unit: z
    .enum(UNITS, { error: named('unit', UNITS) })
    .nullish()
    .transform((u) => u ?? undefined)
    // Optional on the way out too: a filter without a unit is stored and answered without one.
    .optional(),
});

function treeSchema(depth: number): z.ZodType<FilterTree> {
  const conditions =
    depth < MAX_NESTING
      ? treeSchema(depth + 1).optional()
      : z.never({ error: `conditions may nest at most ${MAX_NESTING} levels` }).optional();
  const group = z
    .object({ filters: z.array(FilterSchema).max(MAX_ITEMS).default([]), conditions })
    .refine((g) => g.filters.length > 0 || g.conditions !== undefined, 'a group needs at least one filter or nested conditions');
  const tree = z.object({
    logic: z.enum(LOGICS, { error: named('logic', LOGICS) }),
    groups: z.array(group).min(1, 'a condition needs at least one group').max(MAX_ITEMS),
  });
  return tree as unknown as z.ZodType<FilterTree>;
}

/** The filter tree of segments, campaign audiences and CONDITION steps (docs/filters.md). */
export const FilterTreeSchema = treeSchema(1).describe(
  'Filter tree: `logic` combines the groups; inside a group, every filter and the nested `conditions` must hold.',
);

const { $schema: _dialect, ...documented } = z.toJSONSchema(FilterTreeSchema, { io: 'input', unrepresentable: 'any' });

/**
 * A request field that takes a filter tree but checks it in the handler, so that a bad tree is a 400 naming
 * the offending field or operator (docs/filters.md "Choices") rather than a schema failure; documented as the tree.
 */
export const filterTreeInput = () => z.unknown().meta(documented);
