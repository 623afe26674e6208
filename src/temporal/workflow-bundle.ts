import { rename, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowsPath } from '../../workflows/path';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };

/**
 * Bundles the workflow code into `file` (written whole, then renamed into place), for WORKER_WORKFLOW_BUNDLE.
 * A worker given a bundle does not run webpack at start: it is ready in a second instead of
 * several and holds about 180 MB less memory (docs/contributors/automations.md "Figures").
 */
export async function writeWorkflowBundle(file: string): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: quiet });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, code);
  await rename(partial, file);
}
