/**
 * Waits, when needed, until at least `seconds` remain in the current minute, so that a test counting
 * requests in the per-minute window does not straddle two windows.
 */
export async function clearOfMinuteEdge(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 100));
}
