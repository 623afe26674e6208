import type { Config } from '../../config';
import type { Automation, AutomationExecution, AutomationStep, AutomationTransition } from './entities';
import type { ExecutionResponse, StepResponse, TransitionResponse, WorkflowResponse } from './schemas';
import { openWebhookSecret } from './webhook/secret';

export const serializeWorkflow = (config: Config, a: Automation): WorkflowResponse => ({
  id: a.id,
  projectId: a.projectId,
  name: a.name,
  description: a.description ?? null,
  triggerType: a.triggerType,
  triggerConfig: a.triggerType === 'EVENT' ? { eventName: a.triggerConfig.eventName } : {},
  enabled: a.enabled,
  allowReentry: a.allowReentry,
  webhookSecret: openWebhookSecret(config, a),
  goal: a.goal ?? null,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

export const serializeStep = (s: AutomationStep): StepResponse => ({
  id: s.id,
  workflowId: s.automationId,
  type: s.type,
  name: s.name ?? null,
  config: s.config,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

export const serializeTransition = (t: AutomationTransition): TransitionResponse => ({
  id: t.id,
  workflowId: t.automationId,
  fromStepId: t.fromStepId,
  toStepId: t.toStepId,
  branch: t.branch ?? null,
  outcome: t.outcome ?? null,
  createdAt: t.createdAt.toISOString(),
});

/**
 * `email` is the contact's, looked up with the page (undefined only if the contact went meanwhile); `resumesAt`
 * when a WAITING execution's timer ends (resume-times.ts).
 */
export function serializeExecution(e: AutomationExecution, email: string | undefined, resumesAt: string | null): ExecutionResponse {
  const step = e.currentStepId ? e.definition.steps.find((s) => s.id === e.currentStepId) : undefined;
  return {
    id: e.id,
    workflowId: e.automationId,
    contactId: e.contactId,
    contact: email === undefined ? null : { id: e.contactId, email },
    status: e.status,
    currentStepId: e.currentStepId ?? null,
    currentStep: step ? { id: step.id, type: step.type, name: step.name } : null,
    waitingFor: e.waitingFor ?? null,
    resumesAt,
    context: e.context,
    stepHistory: e.history,
    exitReason: e.exitReason ?? null,
    error: e.error ?? null,
    entry: e.entry,
    triggerEventId: e.triggerEventId ?? null,
    version: e.definition.version ?? null,
    temporalWorkflowId: e.temporalWorkflowId,
    temporalRunId: e.temporalRunId ?? null,
    startedAt: e.createdAt.toISOString(),
    completedAt: e.completedAt?.toISOString() ?? null,
    updatedAt: e.updatedAt.toISOString(),
  };
}
