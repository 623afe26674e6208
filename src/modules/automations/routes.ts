import type { Deps } from '../../deps';
import { requireProject } from '../../http/context';
import { defineRoute, type RouteDef } from '../../http/route';
import {
  cancelAllExecutions,
  cancelExecution,
  executionHistory,
  getExecution,
  getExecutionById,
  listExecutions,
  startManually,
} from './executions';
import { workflowFields } from './fields';
import {
  AddStepBody,
  AddTransitionBody,
  CancelAllResponse,
  CreateWorkflowBody,
  DeleteStepQuery,
  ExecutionPage,
  ExecutionParams,
  ExecutionIdParams,
  ExecutionHistoryResponse,
  ExecutionResponse,
  ListExecutionsQuery,
  ListWorkflowsQuery,
  StartExecutionBody,
  StepParams,
  StepResponse,
  TransitionParams,
  TransitionResponse,
  UpdateStepBody,
  UpdateWorkflowBody,
  WorkflowDetailResponse,
  WorkflowFieldsResponse,
  WorkflowIdParams,
  WorkflowPage,
  WorkflowResponse,
  WorkflowStatsResponse,
  ListVersionsQuery,
  MigrateBody,
  MigrateResponse,
  VersionPage,
  VersionParams,
} from './schemas';
import { listVersions, migrateVersion } from './versions';
import { serializeStep, serializeTransition, serializeWorkflow } from './serialize';
import { loadGraph } from './graphs';
import { createAutomation, deleteAutomation, findAutomation, listAutomations, updateAutomation } from './service';
import { workflowStats } from './stats';
import { addStep, addTransition, deleteStep, deleteTransition, updateStep } from './steps';
import { STEP_TYPES } from './step-types';
import { SimulateBody, SimulationResponse } from './simulate/schemas';
import type { Simulator } from './simulate/service';

const tag = 'Workflows';
const notFound = {
  404: { description: 'WORKFLOW_NOT_FOUND: no such workflow in this project (or NOT_FOUND for the step, transition or execution)' },
};
const badGraph = {
  400: {
    description:
      'BAD_REQUEST: a graph rule (one root, no cycle) or a config the project rejects (unknown template, bad filter), named in `errors`',
  },
};
const unavailable = { 503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached; nothing changed' } };

export function automationRoutes(deps: Deps, simulator: Simulator): RouteDef[] {
  const detail = async (em: Parameters<typeof loadGraph>[0], projectId: string, id: string) => {
    const automation = await findAutomation(em, projectId, id);
    const graph = await loadGraph(em, id);
    return {
      ...serializeWorkflow(deps.config, automation),
      steps: graph.steps.map(serializeStep),
      transitions: graph.transitions.map(serializeTransition),
    };
  };
  return [
    defineRoute({
      method: 'get',
      path: '/workflows',
      tag,
      summary: 'Workflows of the project, newest first, page by page',
      auth: 'secret',
      query: ListWorkflowsQuery,
      responses: { 200: { description: 'A page of workflows (without their steps)', schema: WorkflowPage } },
      handler: async (ctx, { query }) => {
        const page = await listAutomations(ctx.state.em, requireProject(ctx).id, query);
        ctx.body = { ...page, data: page.data.map((a) => serializeWorkflow(deps.config, a)) };
      },
    }),
    // Before /workflows/{id}, which would take "fields" for an id.
    defineRoute({
      method: 'get',
      path: '/workflows/fields',
      tag,
      summary: 'Fields a CONDITION step can use: contact fields with their types, email activity, event names and event data keys',
      auth: 'secret',
      responses: { 200: { description: 'The fields', schema: WorkflowFieldsResponse } },
      handler: async (ctx) => {
        ctx.body = await workflowFields(ctx.state.em, requireProject(ctx).id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows',
      tag,
      summary: 'Create a workflow: triggerType EVENT on eventName, disabled, without steps',
      auth: 'secret',
      body: CreateWorkflowBody,
      responses: { 201: { description: 'The workflow', schema: WorkflowResponse } },
      handler: async (ctx, { body }) => {
        const automation = await createAutomation(deps, ctx.state.em, requireProject(ctx).id, body);
        ctx.status = 201;
        ctx.body = serializeWorkflow(deps.config, automation);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workflows/{id}',
      tag,
      summary: 'A workflow with its steps and transitions',
      auth: 'secret',
      params: WorkflowIdParams,
      responses: { 200: { description: 'The workflow', schema: WorkflowDetailResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await detail(ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/workflows/{id}',
      tag,
      summary: 'Update name, description, trigger (EVENT with eventName, or MANUAL), enabled or allowReentry',
      auth: 'secret',
      params: WorkflowIdParams,
      body: UpdateWorkflowBody,
      responses: {
        200: { description: 'The workflow with its steps and transitions', schema: WorkflowDetailResponse },
        400: {
          description:
            'BAD_REQUEST: enabling a graph that is not single-rooted and acyclic (errors name the problems), or a trigger without its eventName',
        },
        ...notFound,
      },
      handler: async (ctx, { params, body }) => {
        const projectId = requireProject(ctx).id;
        await updateAutomation(ctx.state.em, projectId, params.id, body);
        ctx.body = await detail(ctx.state.em, projectId, params.id);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/workflows/{id}',
      tag,
      summary: 'Delete a workflow with its steps and finished executions',
      auth: 'secret',
      params: WorkflowIdParams,
      responses: {
        204: { description: 'Deleted' },
        ...notFound,
        409: { description: 'CONFLICT: the workflow has RUNNING or WAITING executions' },
      },
      handler: async (ctx, { params }) => {
        await deleteAutomation(ctx.state.em, requireProject(ctx).id, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/steps',
      tag,
      summary: `Add a step (${STEP_TYPES.join(', ')}) with its config`,
      auth: 'secret',
      params: WorkflowIdParams,
      body: AddStepBody,
      responses: { 201: { description: 'The step', schema: StepResponse }, ...badGraph, ...notFound },
      handler: async (ctx, { params, body }) => {
        const step = await addStep(ctx.state.em, requireProject(ctx).id, params.id, body);
        ctx.status = 201;
        ctx.body = serializeStep(step);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/workflows/{id}/steps/{stepId}',
      tag,
      summary: "Update a step's name or config (its type stays); running executions keep the definition they started with",
      auth: 'secret',
      params: StepParams,
      body: UpdateStepBody,
      responses: { 200: { description: 'The step', schema: StepResponse }, ...badGraph, ...notFound },
      handler: async (ctx, { params, body }) => {
        ctx.body = serializeStep(await updateStep(ctx.state.em, requireProject(ctx).id, params.id, params.stepId, body));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/workflows/{id}/steps/{stepId}',
      tag,
      summary: 'Delete a step and its transitions; splice=true reconnects its incoming transitions to its successor',
      auth: 'secret',
      params: StepParams,
      query: DeleteStepQuery,
      responses: { 204: { description: 'Deleted' }, ...badGraph, ...notFound },
      handler: async (ctx, { params, query }) => {
        await deleteStep(ctx.state.em, requireProject(ctx).id, params.id, params.stepId, query.splice);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/transitions',
      tag,
      summary:
        'Connect two steps; branch (yes/no) from CONDITION steps, branch (A-E) from RANDOM_SPLIT steps, outcome (EVENT/TIMEOUT) from WAIT_FOR_EVENT steps',
      auth: 'secret',
      params: WorkflowIdParams,
      body: AddTransitionBody,
      responses: { 201: { description: 'The transition', schema: TransitionResponse }, ...badGraph, ...notFound },
      handler: async (ctx, { params, body }) => {
        const transition = await addTransition(ctx.state.em, requireProject(ctx).id, params.id, body);
        ctx.status = 201;
        ctx.body = serializeTransition(transition);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/workflows/{id}/transitions/{transitionId}',
      tag,
      summary: 'Delete a transition',
      auth: 'secret',
      params: TransitionParams,
      responses: { 204: { description: 'Deleted' }, ...badGraph, ...notFound },
      handler: async (ctx, { params }) => {
        await deleteTransition(ctx.state.em, requireProject(ctx).id, params.id, params.transitionId);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/executions',
      tag,
      summary: 'Start an execution of an enabled workflow (EVENT or MANUAL) for a contact, with an optional context',
      auth: 'secret',
      sends: true,
      params: WorkflowIdParams,
      body: StartExecutionBody,
      responses: {
        201: { description: 'The execution, RUNNING', schema: ExecutionResponse },
        400: { description: 'BAD_REQUEST: the workflow is disabled' },
        404: { description: 'WORKFLOW_NOT_FOUND, or CONTACT_NOT_FOUND for the contactId or email' },
        409: { description: 'CONFLICT: re-entry refused (details.reason ALREADY_ENTERED or ALREADY_ACTIVE)' },
        ...unavailable,
      },
      handler: async (ctx, { params, body }) => {
        ctx.status = 201;
        ctx.body = await startManually(deps, ctx.state.em, requireProject(ctx).id, params.id, body);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/simulate',
      tag,
      summary:
        'Simulate an execution on a virtual clock (its own steps or an unsaved definition) for a real or hypothetical contact; changes nothing',
      auth: 'secret',
      agent: { readOnly: true },
      params: WorkflowIdParams,
      body: SimulateBody,
      responses: {
        200: {
          description: 'The timeline: each step reached with its offsets and what it produced; passed and failures with expect',
          schema: SimulationResponse,
        },
        400: {
          description:
            'BAD_REQUEST: the definition cannot run (no entry step, a cycle, a config the project rejects) or expect or webhookResponses name an unknown step',
        },
        404: { description: 'WORKFLOW_NOT_FOUND, or CONTACT_NOT_FOUND for the contactId' },
        429: { description: 'RATE_LIMIT_EXCEEDED: every simulation slot and the queue are taken (details.retryAfter seconds)' },
        503: {
          description: 'SERVICE_UNAVAILABLE: the simulation could not run (its test server failed or it ran past 30 s); nothing changed',
        },
      },
      handler: async (ctx, { params, body }) => {
        ctx.body = await simulator.simulate(ctx.state.em, requireProject(ctx).id, params.id, body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workflows/{id}/executions',
      tag,
      summary: 'Executions of the workflow, newest first, optionally of one status',
      auth: 'secret',
      params: WorkflowIdParams,
      query: ListExecutionsQuery,
      responses: { 200: { description: 'A page of executions', schema: ExecutionPage }, ...notFound },
      handler: async (ctx, { params, query }) => {
        ctx.body = await listExecutions(ctx.state.em, requireProject(ctx).id, params.id, query);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workflows/{id}/stats',
      tag,
      summary:
        'Figures per step: executions that entered, wait there now, left, failed or were cancelled there, by branch and outcome; totals by status',
      auth: 'secret',
      params: WorkflowIdParams,
      responses: { 200: { description: 'The figures', schema: WorkflowStatsResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await workflowStats(ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workflows/{id}/versions',
      tag,
      summary:
        'Versions of the workflow, newest first: each graph published (enabling, or an edit while enabled), with the executions active on it',
      auth: 'secret',
      params: WorkflowIdParams,
      query: ListVersionsQuery,
      responses: { 200: { description: 'A page of versions, each with its steps and transitions', schema: VersionPage }, ...notFound },
      handler: async (ctx, { params, query }) => {
        ctx.body = await listVersions(ctx.state.em, requireProject(ctx).id, params.id, query);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/versions/{version}/migrate',
      tag,
      summary:
        'Move the executions of a version that wait at a mapped step to the latest version, at the step the map names (a signal to each run)',
      auth: 'secret',
      params: VersionParams,
      body: MigrateBody,
      responses: {
        202: { description: 'How many were signalled to move, and how many were skipped and why', schema: MigrateResponse },
        404: { description: 'WORKFLOW_NOT_FOUND, or NOT_FOUND for the version' },
        409: { description: 'CONFLICT: the version is the latest (details.latest)' },
        422: { description: 'VALIDATION_ERROR: the map names a step not in the version (a key) or not in the latest version (a value)' },
        ...unavailable,
      },
      handler: async (ctx, { params, body }) => {
        ctx.status = 202;
        ctx.body = await migrateVersion(deps, ctx.state.em, requireProject(ctx).id, params.id, params.version, body);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/workflows/{id}/executions/cancel-all',
      tag,
      summary: 'Cancel every RUNNING or WAITING execution of the workflow',
      auth: 'secret',
      params: WorkflowIdParams,
      responses: { 200: { description: 'How many were cancelled', schema: CancelAllResponse }, ...notFound, ...unavailable },
      handler: async (ctx, { params }) => {
        ctx.body = await cancelAllExecutions(deps, ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/workflows/{id}/executions/{executionId}',
      tag,
      summary: 'One execution: contact, status, current step, context, step history, Temporal workflow ID',
      auth: 'secret',
      params: ExecutionParams,
      responses: { 200: { description: 'The execution', schema: ExecutionResponse }, ...notFound },
      handler: async (ctx, { params }) => {
        ctx.body = await getExecution(ctx.state.em, requireProject(ctx).id, params.id, params.executionId);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/workflows/{id}/executions/{executionId}',
      tag,
      summary: 'Cancel a RUNNING or WAITING execution (its Temporal workflow is cancelled)',
      auth: 'secret',
      params: ExecutionParams,
      responses: {
        200: { description: 'The execution, CANCELLED', schema: ExecutionResponse },
        ...notFound,
        409: { description: 'CONFLICT: the execution has already ended' },
        ...unavailable,
      },
      handler: async (ctx, { params }) => {
        ctx.body = await cancelExecution(deps, ctx.state.em, requireProject(ctx).id, params.id, params.executionId);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/executions/{id}',
      tag: 'Executions',
      summary: 'One execution by its id alone, whichever workflow it belongs to (the same view as under its workflow)',
      auth: 'secret',
      params: ExecutionIdParams,
      responses: {
        200: { description: 'The execution', schema: ExecutionResponse },
        404: { description: 'NOT_FOUND: no such execution in this project' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = await getExecutionById(ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/executions/{id}/history',
      tag: 'Executions',
      summary: "The Temporal history of the execution's run, summarized: activities, timers, signals and how it ended, oldest first",
      auth: 'secret',
      params: ExecutionIdParams,
      responses: {
        200: { description: 'The summarized history', schema: ExecutionHistoryResponse },
        404: { description: 'NOT_FOUND: no such execution in this project' },
        503: { description: 'SERVICE_UNAVAILABLE: Temporal cannot be reached' },
      },
      handler: async (ctx, { params }) => {
        ctx.body = await executionHistory(deps, ctx.state.em, requireProject(ctx).id, params.id);
      },
    }),
  ];
}
