import path from 'node:path';
import { historyFiles, loadHistory, replayHistory } from '../helpers/histories';
import { HISTORIES_DIR } from './histories';

/**
 * Replays recorded histories of real delivery loops (recorded by the time-skipping tests with
 * RECORD_WEBHOOK_HISTORIES=1) against the current workflow code, so a change that would break runs in flight
 * fails here instead of in production.
 */
const histories = historyFiles(HISTORIES_DIR);

describe('webhook endpoint workflow replay', () => {
  it('has a recorded history of a loop that retried for 3 days and disabled its endpoint', () => {
    expect(histories).toContain('failing-3-days-disabled.json');
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });
});
