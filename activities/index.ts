import type { Deps } from '../src/deps';

/** Every activity the worker runs, built from the process's dependencies. */
export function createActivities(_deps: Deps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
