/**
 * Wakes a delivery round waiting in this process as soon as the events outbox hands on an event of its
 * project, instead of at its next poll. Rounds in other processes still find the event at their next poll.
 */
const waiting = new Map<string, Set<() => void>>();

export function wakeRounds(projectId: string): void {
  const set = waiting.get(projectId);
  if (!set) return;
  waiting.delete(projectId);
  for (const resolve of set) resolve();
}

/** Resolves when `wakeRounds(projectId)` is called or after `ms`, whichever comes first. */
export function waitForEvents(projectId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const set = waiting.get(projectId) ?? new Set<() => void>();
    waiting.set(projectId, set);
    const done = () => {
      clearTimeout(timer);
      set.delete(done);
      if (set.size === 0 && waiting.get(projectId) === set) waiting.delete(projectId);
      resolve();
    };
    const timer = setTimeout(done, ms);
    set.add(done);
  });
}
