import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/**
 * With RECORD_CONSENT_HISTORIES=1, saves a consent workflow's Temporal history as test/consent/histories/<name>.json,
 * for replay.unit.test.ts. Record again only when a change is meant to be incompatible with runs in flight
 * (and then version it): replaying old histories is what catches non-deterministic changes.
 */
export async function recordHistory(env: TestWorkflowEnvironment, workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_CONSENT_HISTORIES !== '1') return;
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  mkdirSync(HISTORIES_DIR, { recursive: true });
  writeFileSync(path.join(HISTORIES_DIR, `${name}.json`), `${JSON.stringify(history, null, 1)}\n`);
}
