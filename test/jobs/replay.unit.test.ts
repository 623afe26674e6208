import path from 'node:path';
import { replayHistory } from '../helpers/histories';

/**
 * Replays a contact import recorded before the job-fails-after-running-chunks patch: chunk 2 failed while
 * chunk 3 was still running, and the job was failed at once. Runs in flight from before the patch must keep
 * replaying that way under the current workflow code.
 */
describe('contact job workflow replay', () => {
  it('replays a run that failed a chunk beside a running one before the patch', () =>
    replayHistory(path.join(__dirname, 'histories'), 'failed-beside-running-chunk.json'));
});
