/** A chunk whose stored items do not read as the job's kind expects: retrying cannot help. */
export class InvalidChunkError extends Error {
  override name = 'InvalidChunkError';
}
