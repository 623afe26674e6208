import { workflowInfo } from '@temporalio/workflow';

/**
 * History events a run of a long workflow (a campaign send, a contact job, the loops of domain checks, segment
 * tracking and webhook deliveries) gathers before it continues as new.
 *
 * After a worker dies, the next one replays a run's history from the start within one workflow task, and
 * Temporal gives that task 10 s. The replay handles each of the run's workflow tasks in a round trip
 * between the SDK's core and the worker's main thread, so its time is the number of tasks times the main
 * thread's latency: on a loaded worker busy delivering mail, tens of milliseconds each. A campaign run of
 * 1,276 events (about 220 workflow tasks) then took 10.7-16.6 s and looped on "Workflow task not found"; at
 * this length a run holds about 25 tasks (docs/contributors/campaigns.md "Why a run is short").
 */
export const RUN_EVENTS = 120;

/** At a step boundary: the run is long enough to continue as new (or Temporal suggests it). */
export const runIsFull = (): boolean => workflowInfo().historyLength >= RUN_EVENTS || workflowInfo().continueAsNewSuggested;
