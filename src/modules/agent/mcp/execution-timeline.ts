import { z } from 'zod';
import type { ComposedSpec } from './composed-tool';

interface Execution {
  id: string;
  workflowId: string;
  contact: { id: string; email: string } | null;
  status: string;
  currentStep: { id: string; type: string; name: string | null } | null;
  waitingFor: string | null;
  exitReason: string | null;
  error: string | null;
  startedAt: string;
  completedAt: string | null;
  stepHistory: Array<{
    type: string;
    name: string | null;
    status: string;
    startedAt: string;
    completedAt: string | null;
    error: string | null;
  }>;
}
interface History {
  temporalWorkflowId: string;
  temporalRunId: string | null;
  retained: boolean;
  events: Array<{ at: string; type: string; summary: string }>;
}

const Input = z.object({ executionId: z.uuid().describe("The execution's id (GET /workflows/{id}/executions lists them)") });

interface Entry {
  at: string;
  source: 'step' | 'temporal';
  summary: string;
}

function stepEntries(execution: Execution): Entry[] {
  return execution.stepHistory.flatMap((s) => {
    const label = `${s.type}${s.name ? ` "${s.name}"` : ''}`;
    const started: Entry = { at: s.startedAt, source: 'step', summary: `${label} started` };
    if (!s.completedAt) return [started];
    return [started, { at: s.completedAt, source: 'step', summary: `${label} ${s.status}${s.error ? `: ${s.error}` : ''}` }];
  });
}

export const executionTimeline: ComposedSpec<typeof Input> = {
  name: 'execution_timeline',
  description:
    "The timeline of one automation execution: its steps (from the execution's record) and its Temporal history, summarized (activities, timers, signals, how it ended), merged in time order, with the execution's status and where it waits.",
  input: Input,
  run: async (api, { executionId }) => {
    const execution = await api.data<Execution>('get', '/executions/{id}', { id: executionId });
    const [history, workflow] = await Promise.all([
      api.data<History>('get', '/executions/{id}/history', { id: executionId }),
      api.data<{ id: string; name: string }>('get', '/workflows/{id}', { id: execution.workflowId }),
    ]);
    const timeline = [
      ...stepEntries(execution),
      ...history.events.map((e): Entry => ({ at: e.at, source: 'temporal', summary: e.summary })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    return {
      execution: {
        id: execution.id,
        workflow: { id: workflow.id, name: workflow.name },
        contact: execution.contact,
        status: execution.status,
        currentStep: execution.currentStep,
        waitingFor: execution.waitingFor,
        exitReason: execution.exitReason,
        error: execution.error,
        startedAt: execution.startedAt,
        completedAt: execution.completedAt,
      },
      temporal: { workflowId: history.temporalWorkflowId, runId: history.temporalRunId, historyRetained: history.retained },
      timeline,
    };
  },
};
