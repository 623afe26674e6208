import { proxyLocalActivities } from '@temporalio/workflow';
import type { AutomationActivities } from '../../../activities/automation';

const STEP_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 } as const;

/**
 * Database work of a step (everything but WEBHOOK): quick, so it runs as a local activity, in the worker that
 * holds the workflow task, without a round trip through the server per step; retried with backoff for about
 * four minutes, then the step fails.
 */
export const stepActivities = (summary: string) =>
  proxyLocalActivities<AutomationActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY, summary });

/** Mirror writes run in the worker that holds the workflow task: no round trip through the server. */
export const { saveAutomationState } = proxyLocalActivities<AutomationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds' },
});
