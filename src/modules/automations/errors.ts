import { ApiError, badRequest, notFound } from '../../http/errors';
import type { GraphProblem } from '../../../workflows/automation/graph';

export const workflowNotFound = () => notFound('Workflow', 'WORKFLOW_NOT_FOUND');

/** A graph rule of docs/automations.md "Editing" broken by an edit (or standing in the way of enabling): a 400 naming it. */
export function invalidGraph(summary: string, problems: GraphProblem[]): ApiError {
  return badRequest(`${summary}: ${problems[0]!.message}`, {
    errors: problems.map((p) => ({ field: p.field, message: p.message, code: 'invalid_graph' })),
    suggestion: 'A workflow is a single-rooted acyclic graph of steps; see GET /openapi.json for the shape of steps and transitions.',
  });
}

/** A step config that is well formed but does not fit the project (an unknown template, a bad filter, …). */
export const invalidStepConfig = (field: string, message: string) =>
  badRequest(`Invalid step config: ${message}`, { errors: [{ field, message, code: 'invalid_config' }] });
