import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** With RECORD_SCHEDULED_EMAIL_HISTORIES=1, saves a timer's history as test/sending/histories/<name>.json (test/helpers/histories.ts). */
export async function recordHistory(env: TestWorkflowEnvironment, workflowId: string, name: string): Promise<void> {
  await record('RECORD_SCHEDULED_EMAIL_HISTORIES', env.client.workflow.getHandle(workflowId), HISTORIES_DIR, name);
}
