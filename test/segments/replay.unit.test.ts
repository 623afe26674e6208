import path from 'node:path';
import { historyFiles, loadHistory, replayHistory } from '../helpers/histories';

/**
 * Replays recorded histories of the segment tracking loop (workflows/segments/tracking.ts) against the current workflow code (test/helpers/histories.ts).
 * `computes-per-run.json`: a run 25 computations in (364 events), recorded before the segment-tracking-short-runs
 * patch; the patched code would have continued as new at 120 events, so its replay proves that runs in flight keep
 * their rule.
 */
const HISTORIES_DIR = path.join(__dirname, 'histories');
const histories = historyFiles(HISTORIES_DIR);

describe('segment tracking loop replay', () => {
  it('has a recorded history from before the segment-tracking-short-runs patch', () => {
    expect(histories).toEqual(['computes-per-run.json']);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });
});
