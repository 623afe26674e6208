import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal-env';
import { HISTORIES_DIR } from './histories';

/**
 * Replays recorded histories of real snoozes and confirmations (recorded by double-opt-in.time-skipping.test.ts
 * with RECORD_CONSENT_HISTORIES=1) against the current workflow code, so a change that would break runs in
 * flight fails here instead of in production.
 */
const histories = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('consent workflow replay', () => {
  it('has recorded histories of each way a snooze and a confirmation end', () => {
    expect(histories).toEqual([
      'confirmation-confirmed.json',
      'confirmation-reminded-expired.json',
      'snooze-ended.json',
      'snooze-moved-resumed.json',
    ]);
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${file}`);
  });
});
