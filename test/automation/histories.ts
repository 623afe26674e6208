import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/**
 * With RECORD_AUTOMATION_HISTORIES=1, saves the execution's Temporal history as
 * test/automation/histories/<workflow type>-<name>.json (plain <name>.json for the type `automation`, whose
 * runs are recorded no more), for replay.unit.test.ts. Record again only when a change to the workflow
 * is meant to be incompatible with runs in flight (and then version it): replaying old histories is what
 * catches non-deterministic changes.
 */
export async function recordHistory(env: TestWorkflowEnvironment, execution: Record<string, unknown>, name: string): Promise<void> {
  if (process.env.RECORD_AUTOMATION_HISTORIES !== '1') return;
  const history = await env.client.workflow.getHandle(String(execution.temporalWorkflowId)).fetchHistory();
  mkdirSync(HISTORIES_DIR, { recursive: true });
  const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? 'automation';
  const file = type === 'automation' ? name : `${type}-${name}`;
  writeFileSync(path.join(HISTORIES_DIR, `${file}.json`), `${JSON.stringify(history, null, 1)}\n`);
}
