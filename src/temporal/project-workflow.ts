import type { SearchAttributePair } from '@temporalio/common';
import { ProjectIdKey } from '../../workflows/search-attributes';
import type { TemporalGateway } from './client';

/**
 * The start options every workflow of a project carries. The project is its fairness key, and its activities
 * inherit it: where the Temporal server dispatches by fairness (matching.enableFairness, docs/automations.md
 * "Fairness"), one project's backlog of tasks does not hold back another's; elsewhere the key is ignored. And
 * its search attributes, ProjectId first and then `attributes`, where the server has a visibility store (the
 * time-skipping test server has none).
 */
export const projectWorkflow = (temporal: TemporalGateway, projectId: string, attributes: SearchAttributePair[] = []) => ({
  priority: { fairnessKey: projectId },
  ...(temporal.searchAttributes ? { typedSearchAttributes: [{ key: ProjectIdKey, value: projectId }, ...attributes] } : {}),
});
