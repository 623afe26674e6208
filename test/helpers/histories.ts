import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from './temporal-env';

/**
 * Recorded Temporal histories, replayed by the areas' replay.unit.test.ts against the current workflow code:
 * a change that would make runs in flight take other steps (non-determinism) fails there instead of in
 * production. A time-skipping test records one with its area's RECORD_…_HISTORIES=1; record again only when a
 * change is meant to be incompatible with runs in flight (and then version it).
 */

/** Saves the run's history as `<dir>/<name>.json` when `flag` is set to 1 in the environment. */
export async function recordHistory(
  env: TestWorkflowEnvironment,
  workflowId: string,
  dir: string,
  name: string,
  flag: string,
): Promise<void> {
  if (process.env[flag] !== '1') return;
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(history, null, 1)}\n`);
}

/** The recorded histories of `dir`, by file name. */
export const historiesIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();

/** Replays `<dir>/<file>` with the current workflow bundle; throws on non-determinism. */
export async function replayHistory(dir: string, file: string): Promise<void> {
  // Decoded by @temporalio/proto itself: this install holds two copies of protobufjs, so the SDK's
  // historyFromJSON cannot read its own types.
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${file}`);
}
