import type { Config } from '../config';

/**
 * The Temporal worker's settings that every process running the real worker shares (src/main/worker.ts, the
 * tests' workers): its queue, its cache (thousands of automation runs can wait at once; each cached run holds
 * about 1 MB, the others replay their history when they resume), and how many workflow tasks it runs at once.
 * Few slots: a worker whose CPU is the bound completes as many tasks per second with 10 as with 40, and a task dispatched by
 * fairness (a quiet project's) then waits for one slot, not for the local activities of 40 busy ones
 * (docs/automations.md "Fairness"). A workflow task waits up to a minute in this worker's own (sticky) queue
 * before the server hands it to the shared queue: under a burst of resumed waits, 10 s (the SDK's default) timed
 * out most of them, each a timeout event, a task again and a replay from the whole history.
 */
export const workerSettings = (config: Config) => ({
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS,
  maxConcurrentWorkflowTaskExecutions: Math.min(config.WORKER_WORKFLOW_TASK_SLOTS, config.WORKER_MAX_CACHED_WORKFLOWS),
  stickyQueueScheduleToStartTimeout: '1 minute',
});
