import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { CampaignActivities } from '../../activities/campaigns';
import type { campaignSend } from '../../workflows/campaigns/send';
import { ENQUEUE_CONCURRENCY } from '../../workflows/campaigns/ids';
import { RUN_EVENTS } from '../../workflows/run-length';
import { historyFiles, loadHistory, recordHistory, replayHistory, type History } from '../helpers/histories';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The campaign send's recorded histories replay under the current code, and the longest run a send can make
 * holds few enough workflow tasks that a worker taking over a send after another died replays it far inside
 * Temporal's 10 s workflow task timeout (workflows/run-length.ts; the timings are `npm run bench -- replay`'s).
 *
 * - `steps-per-run.json`: a send of 40 batches after 3 snapshot pages, recorded before the campaign-short-runs
 *   patch (293 events in one run; the patched code would have continued as new at 120).
 * - `short-runs.json`: the first run of the long send below, after the patch (RECORD_CAMPAIGN_HISTORIES=1).
 * - `ab-test.json`: an A/B test's run (campaign-ab-tests).
 * - `enqueue-ahead.json`: a send whose windows of batches wait for room in the queue (campaign-enqueue-ahead).
 */
const HISTORIES_DIR = path.join(__dirname, 'histories');
const taskQueue = `campaign-replay-${randomBytes(4).toString('hex')}`;

/** Batches of the long send: the pre-patch code's first run held 100 steps of them, about 2,400 events. */
const LONG_SEND_BATCHES = 404;

/** Each batch completes a moment after the one before it in its window, as real ones do: a workflow task each. */
const activities: CampaignActivities = {
  beginCampaignSend: async () => ({ asOf: '2026-01-01T00:00:00.000Z' }),
  // The A/B run (campaign c-ab) is short: ten recipients; the run waiting for room (c-ahead) twenty batches.
  snapshotCampaignRecipients: async ({ campaignId, size }) => ({
    last: 'r-last',
    total: campaignId === 'c-ab' ? 10 : campaignId === 'c-ahead' ? 20 * (size / 10) : LONG_SEND_BATCHES * (size / 10),
  }),
  enqueueCampaignEmails: async ({ from, size }) => {
    await new Promise((resolve) => setTimeout(resolve, ((from / size) % ENQUEUE_CONCURRENCY) * 10));
    return { processed: size, emails: size, pending: from + size };
  },
  assignCampaignTestShare: async () => ({ size: 2 }),
  decideCampaignWinner: async () => ({ winner: 1 }),
  awaitCampaignDelivery: async () => ({ pending: 0, held: null }),
  finishCampaignSend: async () => true,
};
const env = stubActivityWorker(taskQueue, activities);

const workflowTasks = (history: History) => (history.events ?? []).filter((e) => e.workflowTaskCompletedEventAttributes).length;

describe('campaign send workflow replay', () => {
  const histories = historyFiles(HISTORIES_DIR);

  it('has recorded histories from before and after the campaign-short-runs patch, of an A/B test and of waits for room', () => {
    expect(histories).toEqual(['ab-test.json', 'enqueue-ahead.json', 'short-runs.json', 'steps-per-run.json']);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });

  it('records an A/B test run (patch campaign-ab-tests: test share, wait, winner, rest) and replays it', async () => {
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:replay-ab-${randomBytes(4).toString('hex')}`,
      args: [
        {
          campaignId: 'c-ab',
          projectId: 'p-ab',
          sendId: 's-ab',
          scheduledFor: null,
          batchSize: 5,
          ab: { variants: 2, testPercent: 20, waitMinutes: 60, winnerBy: 'OPENS' },
        },
      ],
    });
    expect(await handle.result()).toBe('SENT');
    await recordHistory('RECORD_CAMPAIGN_HISTORIES', handle, HISTORIES_DIR, 'ab-test');
    const history = await handle.fetchHistory();
    const activities = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(activities).toContain('assignCampaignTestShare');
    expect(activities).toContain('decideCampaignWinner');
    await replayHistory(history, 'ab-test');
  });

  it('records a send whose windows wait for room in the queue (patch campaign-enqueue-ahead) and replays it', async () => {
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:replay-ahead-${randomBytes(4).toString('hex')}`,
      args: [{ campaignId: 'c-ahead', projectId: 'p-ahead', sendId: 's-ahead', scheduledFor: null, batchSize: 2 }],
    });
    expect(await handle.result()).toBe('SENT');
    // The first run: it waits for room after its second window, long before it continues as new. The last one
    // begins wherever the first reached its length, which depends on how the batches' completions fell into
    // workflow tasks; under load it began after the last wait.
    const first = env().client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
    await recordHistory('RECORD_CAMPAIGN_HISTORIES', first, HISTORIES_DIR, 'enqueue-ahead');
    const history = await first.fetchHistory();
    const waits = (history.events ?? []).filter(
      (e) =>
        e.activityTaskScheduledEventAttributes?.activityType?.name === 'awaitCampaignDelivery' &&
        Buffer.from(e.userMetadata?.summary?.data ?? [])
          .toString()
          .includes('catch up'),
    );
    expect(waits.length).toBeGreaterThan(0);
    await replayHistory(history, 'enqueue-ahead');
  });

  it('replays the longest run a send makes in a small fraction of the workflow task timeout', async () => {
    const handle = await env().client.workflow.start<typeof campaignSend>('campaignSend', {
      taskQueue,
      workflowId: `campaign:replay-${randomBytes(4).toString('hex')}`,
      args: [{ campaignId: 'c-long', projectId: 'p-long', sendId: 's-long', scheduledFor: null, batchSize: 2 }],
    });
    expect(await handle.result()).toBe('SENT');
    // The first run is as long as any: all windows of email batches, the largest steps.
    const first = env().client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
    await recordHistory('RECORD_CAMPAIGN_HISTORIES', first, HISTORIES_DIR, 'short-runs');
    const history = await first.fetchHistory();

    // A step adds at most one window's events (three per batch and per workflow task) past the mark.
    expect(history.events?.length).toBeLessThanOrEqual(RUN_EVENTS + 6 * ENQUEUE_CONCURRENCY + 4);
    // A cold replay costs a round trip to the worker's main thread per workflow task, so the tasks bound it: before
    // the patch this run held about 400 (2,400 events). What a task costs, idle and on a busy main thread, is
    // `npm run bench -- replay`'s figure (docs/contributors/campaigns.md "Why a run is short"); speed is never asserted here.
    expect(workflowTasks(history)).toBeLessThanOrEqual(30);
    await replayHistory(history, 'longest-run');
  });
});
