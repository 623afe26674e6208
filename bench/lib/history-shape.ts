import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** What the Temporal server stored for a run, on average over the runs looked at. */
export interface HistoryShape {
  runs: number;
  events: number;
  workflowTasks: number;
  /** Events per type, short names (`MARKER_RECORDED`, `UPSERT_WORKFLOW_SEARCH_ATTRIBUTES`, …). */
  byType: Record<string, number>;
}

const typeName = (type: temporal.api.enums.v1.EventType | null | undefined) =>
  (temporal.api.enums.v1.EventType[type ?? 0] ?? String(type)).replace(/^EVENT_TYPE_/, '');

/** Fetches the histories of `workflowIds` and averages their events, workflow tasks and event types. */
export async function historyShape(client: Client, workflowIds: string[]): Promise<HistoryShape> {
  const byType: Record<string, number> = {};
  let events = 0;
  for (const id of workflowIds) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    for (const event of history.events ?? []) {
      const name = typeName(event.eventType);
      byType[name] = (byType[name] ?? 0) + 1;
      events++;
    }
  }
  const n = workflowIds.length;
  return {
    runs: n,
    events: events / n,
    workflowTasks: (byType.WORKFLOW_TASK_COMPLETED ?? 0) / n,
    byType: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, v / n])),
  };
}

export const describeShape = (s: HistoryShape) =>
  `${s.events.toFixed(1)} history events, ${s.workflowTasks.toFixed(1)} workflow tasks (` +
  Object.entries(s.byType)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(1)}`)
    .join(', ') +
  ')';
