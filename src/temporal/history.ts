import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TemporalGateway } from './client';

/**
 * One event of a run's history that says what happened, in words
 * (docs/automations.md "An execution by its id, and its Temporal history").
 */
export interface HistoryLine {
  eventId: number;
  at: string;
  /** The event type without its `EventAttributes` suffix: ActivityTaskScheduled, TimerFired, … */
  type: string;
  summary: string;
}

type Json = Record<string, unknown> | null | undefined;
interface Stamp {
  seconds?: unknown;
  nanos?: number | null;
}
interface Payload {
  metadata?: Record<string, Uint8Array> | null;
  data?: Uint8Array | null;
}

const millis = (stamp: Stamp | null | undefined) => (stamp ? Number(stamp.seconds ?? 0) * 1000 + Math.round((stamp.nanos ?? 0) / 1e6) : 0);

function text(payload: Payload | null | undefined): string | undefined {
  if (!payload) return undefined;
  try {
    const value = defaultPayloadConverter.fromPayload(payload as never);
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A timer's duration in the largest unit that holds it whole: `2 days`, `90 min`, `45 s`. */
function duration(stamp: Stamp | null | undefined): string {
  const s = Math.round(millis(stamp) / 1000);
  const [size, unit] = (
    [
      [86_400, 'day'],
      [3600, 'h'],
      [60, 'min'],
    ] as const
  ).find(([n]) => s >= n && s % n === 0) ?? [1, 's'];
  const n = s / size;
  return unit === 'day' ? `${n} day${n === 1 ? '' : 's'}` : `${n} ${unit}`;
}

/** `CurrentStep=…, ProjectId=…`: the search attributes an upsert set. */
function attributes(a: Json): string {
  const fields = ((a?.searchAttributes as Json)?.indexedFields ?? {}) as Record<string, Payload>;
  return Object.entries(fields)
    .map(([name, payload]) => `${name}=${text(payload) ?? '?'}`)
    .join(', ');
}
const failureOf = (a: Json) => ((a?.failure as Json)?.message as string | undefined) ?? 'no message';

/** Workflow tasks and markers are the SDK's bookkeeping: left out. */
const NOISE = /^(WorkflowTask|MarkerRecorded)/;

function summaryOf(type: string, a: Json, userSummary: string | undefined): string {
  const name = (key: string) => ((a?.[key] as Json)?.name as string | undefined) ?? '?';
  const base = (() => {
    switch (type) {
      case 'WorkflowExecutionStarted':
        return `Started ${name('workflowType')}`;
      case 'ActivityTaskScheduled':
        return `Activity ${name('activityType')} scheduled`;
      case 'ActivityTaskStarted':
        return `Activity started (attempt ${Number(a?.attempt ?? 1)})`;
      case 'ActivityTaskCompleted':
        return 'Activity completed';
      case 'ActivityTaskFailed':
        return `Activity failed: ${failureOf(a)}`;
      case 'TimerStarted':
        return `Timer of ${duration(a?.startToFireTimeout as Stamp)} started`;
      case 'TimerFired':
        return 'Timer fired';
      case 'UpsertWorkflowSearchAttributes':
        return `Search attributes set: ${attributes(a)}`;
      case 'WorkflowExecutionSignaled':
        return `Signal ${a?.signalName as string} received`;
      case 'WorkflowExecutionFailed':
        return `Failed: ${failureOf(a)}`;
      case 'WorkflowExecutionTerminated':
        return `Terminated: ${(a?.reason as string | undefined) || 'no reason'}`;
      default:
        return type.replace(/([a-z])([A-Z])/g, '$1 $2');
    }
  })();
  return userSummary ? `${base}: ${userSummary}` : base;
}

/** The history of a run, summarized: one line per event that matters, oldest first; undefined once Temporal no longer keeps it. */
export async function historySummary(temporal: TemporalGateway, workflowId: string, runId?: string): Promise<HistoryLine[] | undefined> {
  let history;
  try {
    history = await temporal.client.workflow.getHandle(workflowId, runId).fetchHistory();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  const lines: HistoryLine[] = [];
  for (const event of history.events ?? []) {
    const key = Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k]);
    if (!key) continue;
    const type = key[0]!.toUpperCase() + key.slice(1).replace(/EventAttributes$/, '');
    if (NOISE.test(type)) continue;
    const attributes = (event as Record<string, unknown>)[key] as Json;
    lines.push({
      eventId: Number(event.eventId),
      at: new Date(millis(event.eventTime as Stamp)).toISOString(),
      type,
      summary: summaryOf(type, attributes, text(event.userMetadata?.summary as Payload)),
    });
  }
  return lines;
}
