import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** With RECORD_AUTOMATION_HISTORIES=1, saves the execution's history as test/automation/histories/<name>.json (test/helpers/histories.ts). */
export async function recordHistory(env: TestWorkflowEnvironment, execution: Record<string, unknown>, name: string): Promise<void> {
  await record('RECORD_AUTOMATION_HISTORIES', env.client.workflow.getHandle(String(execution.temporalWorkflowId)), HISTORIES_DIR, name);
}
