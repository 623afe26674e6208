import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** With RECORD_WEBHOOK_HISTORIES=1, saves a delivery loop's history for replay.unit.test.ts (test/helpers/histories.ts). */
export const recordHistory = (env: TestWorkflowEnvironment, workflowId: string, name: string) =>
  record(env, workflowId, HISTORIES_DIR, name, 'RECORD_WEBHOOK_HISTORIES');
