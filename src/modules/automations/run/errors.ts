/** The step cannot succeed however often it is tried (a deleted template, a refused webhook, …). */
export class StepFailed extends Error {}

/** The execution's record is gone or no longer active (contact deleted, execution cancelled): stop quietly. */
export class ExecutionGone extends Error {
  constructor(executionId: string) {
    super(`Execution ${executionId} is no longer active`);
  }
}
