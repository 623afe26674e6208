/**
 * Every workflow of a project carries the project as its fairness key, and its activities inherit it: where the
 * Temporal server dispatches by fairness (matching.enableFairness, docs/automations.md "Fairness"), one project's
 * backlog of tasks does not hold back another's. Elsewhere the key is ignored.
 */
export const fairnessOf = (projectId: string) => ({ priority: { fairnessKey: projectId } });
