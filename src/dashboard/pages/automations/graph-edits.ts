import { api, call } from '../../api/client';
import { below, firstSlot, transitionBody, type Exit, type TreeNode } from './graph';
import type { NewStep, Step } from './types';

/**
 * Adds a step where `at` leaves its step (or as the first step): the step, then its transitions. Inserted
 * between two steps, the transition that joined them is replaced by two through the new step. The API keeps
 * no edit of several calls atomic; the editor reloads the graph after each edit, so it always shows what is stored.
 */
export async function insertStep(workflowId: string, at: Exit | null, body: NewStep): Promise<Step> {
  const path = { id: workflowId };
  // openapi-fetch's exactness check rejects the WEBHOOK member of the union (its `body` is any JSON), though
  // `body` is typed by the same schema.
  const step = await call(api.POST('/workflows/{id}/steps', { params: { path }, body: body as never }));
  if (!at) return step;
  const next = at.transition?.toStepId ?? null;
  if (at.transition) {
    await call(
      api.DELETE('/workflows/{id}/transitions/{transitionId}', { params: { path: { id: workflowId, transitionId: at.transition.id } } }),
    );
  }
  await call(api.POST('/workflows/{id}/transitions', { params: { path }, body: transitionBody(at.from.id, step.id, at.slot) }));
  const onward = firstSlot(step);
  if (next && onward)
    await call(api.POST('/workflows/{id}/transitions', { params: { path }, body: transitionBody(step.id, next, onward) }));
  return step;
}

const remove = (workflowId: string, stepId: string, splice: boolean) =>
  call(
    api.DELETE('/workflows/{id}/steps/{stepId}', {
      params: { path: { id: workflowId, stepId }, query: { splice: splice ? 'true' : 'false' } },
    }),
  );

/** How many ways out of the node lead on: with two, the steps on its branches go with it. */
export const branchesUsed = (node: TreeNode) => node.exits.filter((e) => e.transition).length;

/**
 * Deletes a step. With at most one way on, the API splices it out (what entered it now leads where it led);
 * a step whose two branches both lead on takes the steps drawn on them along.
 */
export async function deleteStep(workflowId: string, node: TreeNode): Promise<void> {
  const withBranches = branchesUsed(node) >= 2;
  if (withBranches) for (const step of below(node)) await remove(workflowId, step.id, false);
  await remove(workflowId, node.step.id, !withBranches);
}
