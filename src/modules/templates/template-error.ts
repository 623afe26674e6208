/** A template that cannot be used, with the 1-based line of the problem (when known) and the reason. */
export class TemplateError extends Error {
  constructor(
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(line ? `Line ${line}: ${reason}` : reason);
  }
}
