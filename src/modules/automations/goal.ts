import { z } from 'zod';
import { DELAY_UNITS, delayMs, type Goal } from '../../../workflows/automation/definition';
import type { AutomationEvent } from '../../../workflows/automation/ids';
import { asFilterField, FilterError } from '../filters/errors';
import { evaluateData } from '../filters/evaluate';
import { parseFilterTree, resolveFilter, type FilterCatalog } from '../filters/resolve';
import { FilterTreeSchema, filterTreeInput } from '../filters/schemas';
import { EventName, MAX_WAIT_SECONDS } from './step-types/limits';

/** A goal's filter reads the event's data alone, so it resolves against no project data. */
const NO_CATALOG: FilterCatalog = { fieldTypes: new Map(), segments: new Map() };

const Window = z
  .object({
    amount: z.number().int('amount is a whole number').min(1, 'amount must be at least 1'),
    unit: z.enum(DELAY_UNITS),
  })
  .refine((w) => delayMs(w) <= MAX_WAIT_SECONDS * 1000, { message: 'A window is at most 365 days', path: ['amount'] });

const goalShape = (filter: z.ZodType) =>
  z.object({
    event: EventName.describe('The event that reaches the goal (tracked through /v1/track or the events API)'),
    filter: filter
      .optional()
      .describe("On the event's data: a filter tree of event.<key> value filters (docs/filters.md); absent: any such event"),
    window: Window.optional().describe('How long after the execution starts the goal counts; absent: as long as it runs'),
  });

/** `goal` of POST and PATCH /workflows; its filter is checked by `checkedGoal` (400 `invalid_filter`). */
export const GoalBody = goalShape(filterTreeInput()).describe(
  'The goal (docs/automations.md "Goals"): an execution whose contact tracks the event ends CONVERTED wherever it is',
);
export const GoalResponse = goalShape(FilterTreeSchema);

/** A goal as it is stored: its filter checked (strictly, on the event's data alone), or the 400 naming it (`<field>.filter…`). */
export async function checkedGoal(body: z.infer<typeof GoalBody>, field = 'goal'): Promise<Goal> {
  const { event, filter, window } = body;
  if (filter === undefined) return { event, ...(window && { window }) };
  const tree = await asFilterField(`${field}.filter`, async () => {
    const parsed = parseFilterTree(filter);
    resolveFilter(parsed, NO_CATALOG, { strict: true, dataOnly: true });
    return parsed;
  });
  return { event, filter: tree, ...(window && { window }) };
}

/**
 * Whether `event` reaches `goal`: its name, and its data matching the filter at `now` (the window is the run's to
 * judge, on its clock). Where the event is handed over (the outbox's trigger, a simulation's driver).
 */
export function reachesGoal(goal: Goal, event: Pick<AutomationEvent, 'name' | 'data'>, now: Date): boolean {
  if (event.name !== goal.event) return false;
  if (goal.filter === undefined) return true;
  try {
    return evaluateData(resolveFilter(goal.filter, NO_CATALOG, { dataOnly: true }), event.data, now);
  } catch (err) {
    // Stored filters were checked when saved; one that no longer resolves reaches nothing.
    if (err instanceof FilterError) return false;
    throw err;
  }
}
