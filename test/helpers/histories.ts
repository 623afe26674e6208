import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from './temporal-env';

/**
 * Recorded Temporal histories, replayed against the current workflow code (each area's replay.unit.test.ts):
 * a change that would make runs in flight take other steps (non-determinism) fails there instead of in
 * production. Record again only when a change is meant to be incompatible with runs in flight, and then
 * version it (`patched`), keeping the old recordings.
 */

export type History = temporal.api.history.v1.IHistory;

/** The `.json` histories of a folder, sorted. */
export const historyFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();

/** Decoded by @temporalio/proto itself: this install holds two copies of protobufjs, so the SDK's historyFromJSON cannot read its own types. */
export const loadHistory = (file: string): History => temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(file, 'utf8')));

/** When `flag` is set in the environment, saves the run's history as `<dir>/<name>.json`. */
export async function recordHistory(flag: string, handle: WorkflowHandle, dir: string, name: string): Promise<void> {
  if (process.env[flag] !== '1') return;
  const history = await handle.fetchHistory();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(history, null, 1)}\n`);
}

/** Replays a history with the current workflow bundle; throws on non-determinism. */
export async function replayHistory(history: History, name: string): Promise<void> {
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, `replay-${name}`);
}
