import { WorkflowNotFoundError } from '@temporalio/client';

/** Acts on a workflow through its handle (signal, cancel, terminate); false when it is not running (finished, or never started). */
export async function ifRunning(act: () => Promise<unknown>): Promise<boolean> {
  try {
    await act();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
