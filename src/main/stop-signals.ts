/**
 * Runs `stop` on the first SIGINT or SIGTERM and lets the ones that follow pass while it runs. A process often
 * receives its stop signal twice: Ctrl-C reaches the whole process group, and tsx, which runs npm start's
 * processes, sends its child the signal again when the child has not told it within 30 ms that it got it (a
 * child busy stopping). Each child also carries tsx's own handler, which ends the process at once when no other
 * handler is left: with a one-time handler, the second signal did that in the middle of stopping what the
 * process had started (npm start left its PostgreSQL and Temporal servers running). Returns the removal of the
 * handlers.
 */
export function onStopSignals(stop: () => void): () => void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
