import type { Deps } from '../src/deps';
import { createDomainActivities } from './domains';

/** Every activity the worker runs, built from the process's dependencies. */
export function createActivities(deps: Deps) {
  return {
    ...createDomainActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
