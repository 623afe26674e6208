import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../helpers/temporal-env';
import { HISTORIES_DIR } from './histories';

/**
 * Replays recorded histories of real delivery loops (recorded by the time-skipping tests with
 * RECORD_WEBHOOK_HISTORIES=1) against the current workflow code, so a change that would break runs in flight
 * fails here instead of in production.
 */
const histories = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('webhook endpoint workflow replay', () => {
  it('has a recorded history of a loop that retried for 3 days and disabled its endpoint', () => {
    expect(histories).toContain('failing-3-days-disabled.json');
  });

  it.each(histories)('replays %s deterministically', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${file}`);
  });
});
