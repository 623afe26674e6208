import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { recordHistory as record } from '../helpers/histories';

export const HISTORIES_DIR = path.join(__dirname, 'histories');

/** With RECORD_AUTOMATION_HISTORIES=1, saves the execution's history for replay.unit.test.ts (test/helpers/histories.ts). */
export const recordHistory = (env: TestWorkflowEnvironment, execution: Record<string, unknown>, name: string) =>
  record(env, String(execution.temporalWorkflowId), HISTORIES_DIR, name, 'RECORD_AUTOMATION_HISTORIES');
