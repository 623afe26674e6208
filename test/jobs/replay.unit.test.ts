import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { JobActivities } from '../../activities/jobs';
import type { JobResult } from '../../src/modules/jobs/entities';
import { PARALLEL_CHUNKS } from '../../workflows/jobs/ids';
import { RUN_EVENTS } from '../../workflows/run-length';
import { historyFiles, loadHistory, recordHistory, replayHistory } from '../helpers/histories';
import { stubActivityWorker } from '../helpers/temporal-env';

/**
 * The contact job workflow's recorded histories replay under the current code, so runs in flight keep their
 * path, and a long job's runs stay short (workflows/run-length.ts):
 * - `failed-beside-running-chunk.json`: before the job-fails-after-running-chunks patch, chunk 2 failed while
 *   chunk 3 was still running, and the job was failed at once.
 * - `chunks-until-suggested.json`: an import of 41 chunks in one run of 263 events, before the job-short-runs
 *   patch (runs continued as new only when Temporal suggested it).
 * - `short-runs.json`: the first run of the long import below, after it (RECORD_JOB_HISTORIES=1).
 */
const HISTORIES_DIR = path.join(__dirname, 'histories');
const taskQueue = `job-replay-${randomBytes(4).toString('hex')}`;

const RESULT: JobResult = { totalRows: 0, created: 0, updated: 0, skipped: 0, failed: 0, errors: [] };
/** Each chunk completes a moment after the one before it in its window, as real ones do: a workflow task each. */
const activities: JobActivities = {
  beginJob: async () => true,
  processImportChunk: async ({ seq }) => {
    await new Promise((resolve) => setTimeout(resolve, (seq % PARALLEL_CHUNKS) * 10));
    return true;
  },
  processBulkChunk: async () => true,
  finishJob: async () => RESULT,
  failJob: async () => undefined,
};
const env = stubActivityWorker(taskQueue, activities);

describe('contact job workflow replay', () => {
  const histories = historyFiles(HISTORIES_DIR);

  it('has recorded histories from before and after each patch', () => {
    expect(histories).toEqual(['chunks-until-suggested.json', 'failed-beside-running-chunk.json', 'short-runs.json']);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });

  it('continues a long job as new before a run holds more than about RUN_EVENTS events', async () => {
    // 200 chunks of 500 rows: a 5 MB CSV.
    const jobId = `import:replay-${randomBytes(4).toString('hex')}`;
    const handle = await env().client.workflow.start('contactImport', {
      taskQueue,
      workflowId: jobId,
      args: [{ jobId, projectId: 'p-long', total: 200 * 500, chunkSize: 500 }],
    });
    expect(await handle.result()).toEqual(RESULT);
    const first = env().client.workflow.getHandle(jobId, handle.firstExecutionRunId);
    expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
    await recordHistory('RECORD_JOB_HISTORIES', first, HISTORIES_DIR, 'short-runs');
    const events = (await first.fetchHistory()).events ?? [];
    // A window adds at most three events per chunk and per workflow task past the mark.
    expect(events.length).toBeLessThanOrEqual(RUN_EVENTS + 6 * PARALLEL_CHUNKS + 4);
    await replayHistory({ events }, 'longest-run');
  });
});
