import type { Answer, RequestBody } from '../../api/types';

export type Workflow = Answer<'/workflows', 'get'>['data'][number];
export type WorkflowDetail = Answer<'/workflows/{id}', 'get'>;
export type Step = WorkflowDetail['steps'][number];
export type StepType = Step['type'];
export type Transition = WorkflowDetail['transitions'][number];
export type Branch = NonNullable<Transition['branch']>;
export type Execution = Answer<'/workflows/{id}/executions/{executionId}', 'get'>;
export type ExecutionStatus = Execution['status'];
export type WorkflowStats = Answer<'/workflows/{id}/stats', 'get'>;
export type StepFigures = WorkflowStats['steps'][number];
export type Simulation = Answer<'/workflows/{id}/simulate', 'post'>;
export type NewStep = RequestBody<'/workflows/{id}/steps', 'post'>;
export type NewTransition = RequestBody<'/workflows/{id}/transitions', 'post'>;

export const STEP_TYPES: Array<{ value: StepType; label: string }> = [
  { value: 'SEND_EMAIL', label: 'Send an email' },
  { value: 'DELAY', label: 'Wait for a time' },
  { value: 'WAIT_FOR_EVENT', label: 'Wait for an event' },
  { value: 'CONDITION', label: 'Condition (yes / no)' },
  { value: 'WEBHOOK', label: 'Call a webhook' },
  { value: 'UPDATE_CONTACT', label: 'Update the contact' },
  { value: 'RANDOM_SPLIT', label: 'Random split (A/B test)' },
  { value: 'EXIT', label: 'Exit' },
];

/** A step type in words ("Send an email"), never its constant. */
export const stepLabel = (type: string) => STEP_TYPES.find((t) => t.value === type)?.label ?? type;

export const EXECUTION_STATUSES: ExecutionStatus[] = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'CONVERTED', 'FAILED', 'CANCELLED'];

/** A step's config as a plain record: each type's form reads the keys it knows. */
export const configOf = (step: Step): Record<string, unknown> => step.config as unknown as Record<string, unknown>;

export const statusTone = (status: string): 'good' | 'bad' | 'warn' | 'neutral' =>
  status === 'COMPLETED' || status === 'EXITED' || status === 'CONVERTED'
    ? 'good'
    : status === 'FAILED'
      ? 'bad'
      : status === 'CANCELLED'
        ? 'neutral'
        : 'warn';
