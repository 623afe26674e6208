import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/**
 * With RECORD_AUTOMATION_HISTORIES=1, saves the execution's history (test/helpers/histories.ts) as
 * test/automation/histories/<workflow type>-<name>.json: plain <name>.json for the type `automation`, whose runs
 * are recorded no more.
 */
export async function recordHistory(env: TestWorkflowEnvironment, execution: Record<string, unknown>, name: string): Promise<void> {
  if (process.env.RECORD_AUTOMATION_HISTORIES !== '1') return;
  const handle = env.client.workflow.getHandle(String(execution.temporalWorkflowId));
  const { type } = await handle.describe();
  await record('RECORD_AUTOMATION_HISTORIES', handle, HISTORIES_DIR, type === 'automation' ? name : `${type}-${name}`);
}
