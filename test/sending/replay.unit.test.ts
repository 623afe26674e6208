import path from 'node:path';
import { historyFiles, loadHistory, replayHistory } from '../helpers/histories';
import { HISTORIES_DIR } from './histories';

/**
 * Replays recorded runs of scheduled emails (recorded by scheduled.time-skipping.test.ts with
 * RECORD_SCHEDULED_EMAIL_HISTORIES=1) against the current workflow code, so that a change that would break
 * timers in flight fails here instead of in production.
 */
const histories = historyFiles(HISTORIES_DIR);

describe('scheduled email workflow replay', () => {
  it('has recorded histories of a timer that released an email and of one that found nothing left', () => {
    expect(histories).toEqual(['cancelled-nothing-to-release.json', 'released-at-send-at.json']);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    await replayHistory(loadHistory(path.join(HISTORIES_DIR, file)), file);
  });
});
