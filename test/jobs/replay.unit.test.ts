import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal-env';

/**
 * Replays a contact import recorded before the job-fails-after-running-chunks patch: chunk 2 failed while
 * chunk 3 was still running, and the job was failed at once. Runs in flight from before the patch must keep
 * replaying that way under the current workflow code.
 */
describe('contact job workflow replay', () => {
  it('replays a run that failed a chunk beside a running one before the patch', async () => {
    const file = path.join(__dirname, 'histories', 'failed-beside-running-chunk.json');
    // Decoded by @temporalio/proto itself, as in test/automation/replay.unit.test.ts.
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(file, 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, 'replay-failed-beside-running-chunk');
  });
});
