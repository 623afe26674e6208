import { randomBytes } from 'node:crypto';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { DeliveryRound } from '../../workflows/webhooks/ids';
import { RUN_EVENTS } from '../../workflows/run-length';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The endless loops (domain checks, segment tracking, webhook deliveries) continue as new once a run's history
 * reaches RUN_EVENTS, so a worker taking one over after another died replays a few dozen workflow tasks, far
 * inside Temporal's 10 s (workflows/run-length.ts; the campaign send and contact jobs have their own tests in
 * test/campaigns and test/jobs). Stub activities, the time-skipping server's clock.
 */
const taskQueue = `run-length-${randomBytes(4).toString('hex')}`;
const busy: DeliveryRound = { kind: 'busy', delivered: 1, backlog: 10, lastDeliveredAt: null };
const env = stubActivityWorker(taskQueue, {
  checkDomainDns: async () => ({ exists: true, verified: true }),
  beginSegmentCompute: async () => ({ asOf: '2026-01-01T00:00:00.000Z' }),
  computeSegmentChunk: async () => ({ entered: 0, exited: 0, members: 0, last: null }),
  finishSegmentCompute: async () => undefined,
  deliverWebhookRound: async () => busy,
  disableWebhookEndpoint: async () => undefined,
});

/**
 * The first run's length once it continued as new; the loop is ended afterwards. A loop that waits on timers is
 * moved on by the test server's clock; one that never waits (a webhook catching up) just runs.
 */
async function firstRunLength(handle: WorkflowHandleWithFirstExecutionRunId, waits: boolean): Promise<number> {
  const first = env().client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
  for (let tries = 0; (await first.describe()).status.name !== 'CONTINUED_AS_NEW'; tries++) {
    if (tries > 200) throw new Error(`${handle.workflowId} did not continue as new`);
    await (waits ? env().sleep(15 * 60_000) : new Promise((resolve) => setTimeout(resolve, 100)));
  }
  await handle.terminate();
  return (await first.fetchHistory()).events?.length ?? 0;
}

// A step past the mark adds at most one activity or child and a timer, with their workflow tasks.
const BOUND = RUN_EVENTS + 20;

describe('long loops continue as new within RUN_EVENTS history events', () => {
  it.each([
    ['domainVerify', [{ domainId: 'd-1' }], true],
    ['segmentTracking', [{ segmentId: 's-1', projectId: 'p-1', intervalMinutes: 15 }], true],
    ['webhookEndpoint', [{ endpointId: 'e-1' }], false],
  ])('%s', async (type, args, waits) => {
    const handle = await env().client.workflow.start(type, { taskQueue, workflowId: `${type}-${randomBytes(4).toString('hex')}`, args });
    const length = await firstRunLength(handle, waits);
    expect(length).toBeGreaterThanOrEqual(RUN_EVENTS);
    expect(length).toBeLessThanOrEqual(BOUND);
  });
});
