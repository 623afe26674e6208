import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** With RECORD_WEBHOOK_HISTORIES=1, saves a delivery loop's history as test/webhooks/histories/<name>.json (test/helpers/histories.ts). */
export async function recordHistory(env: TestWorkflowEnvironment, workflowId: string, name: string): Promise<void> {
  await record('RECORD_WEBHOOK_HISTORIES', env.client.workflow.getHandle(workflowId), HISTORIES_DIR, name);
}
