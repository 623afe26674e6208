import path from 'node:path';
import { historyFiles, loadHistory, replayHistory } from '../helpers/histories';

/**
 * Replays recorded histories of the domain check loop (workflows/domain-verify) against the current workflow code (test/helpers/histories.ts).
 * `checks-per-run.json`: a run 20 checks in (231 events), recorded before the domain-verify-short-runs patch; the
 * patched code would have continued as new at 120 events, so its replay proves that runs in flight keep their rule.
 */
const HISTORIES_DIR = path.join(__dirname, 'histories');
const histories = historyFiles(HISTORIES_DIR);

describe('domain check loop replay', () => {
  it('has a recorded history from before the domain-verify-short-runs patch', () => {
    expect(histories).toEqual(['checks-per-run.json']);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });
});
