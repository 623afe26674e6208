/** The Temporal server's floor: a workflow that does nothing (one workflow task), for the automation bench's calibration. */
export async function benchEmpty(): Promise<void> {}
