import { z } from 'zod';
import type { ComposedSpec } from './composed-tool';

interface Workflow {
  id: string;
  name: string;
  triggerType: string;
  triggerConfig: { eventName?: string };
  enabled: boolean;
}
interface Step {
  type: string;
  name: string | null;
  status: string;
  startedAfter: string;
  branch?: string;
  outcome?: string;
  error?: string;
  email?: { to: string; subject: string };
  webhook?: { method: string; url: string };
}
interface Simulation {
  status: string;
  endedAfter: string | null;
  steps: Step[];
}

const Input = z
  .object({
    workflowId: z.uuid().describe('The automation (a workflow in the API)'),
    contactId: z.uuid().optional().describe('A contact of the project; its data and stored events count'),
    email: z.email().optional().describe("A contact's address, instead of contactId"),
    eventData: z.record(z.string(), z.unknown()).optional().describe('Data of the triggering event (the execution context)'),
    until: z.string().optional().describe('Stop after this long, e.g. "30 days" (default: when the execution ends)'),
  })
  .refine((input) => input.contactId || input.email, { message: 'Give contactId or email', path: ['contactId'] });

function lineOf(step: Step): string {
  const parts = [`after ${step.startedAfter}: ${step.type}${step.name ? ` "${step.name}"` : ''} ${step.status}`];
  if (step.email) parts.push(`sends "${step.email.subject}" to ${step.email.to}`);
  if (step.webhook) parts.push(`calls ${step.webhook.method} ${step.webhook.url}`);
  if (step.branch) parts.push(`takes the ${step.branch} branch`);
  if (step.outcome) parts.push(`ends waiting on ${step.outcome}`);
  if (step.error) parts.push(`error: ${step.error}`);
  return parts.join(', ');
}

export const automationForContact: ComposedSpec<typeof Input> = {
  name: 'automation_for_contact',
  description:
    "What an automation would do for one contact: runs the workflow's simulation (a virtual clock, nothing sent or changed) for that contact, started by the workflow's trigger event, and lists each step in words with the emails it would send.",
  input: Input,
  run: async (api, input) => {
    const workflow = await api.data<Workflow>('get', '/workflows/{id}', { id: input.workflowId });
    const trigger = workflow.triggerConfig.eventName ? { event: workflow.triggerConfig.eventName, data: input.eventData ?? {} } : undefined;
    const body = {
      id: workflow.id,
      ...(input.contactId ? { contactId: input.contactId } : { contact: { email: input.email } }),
      ...(trigger ? { trigger } : { context: input.eventData ?? {} }),
      ...(input.until ? { until: input.until } : {}),
    };
    // An address of an existing contact is simulated as that contact, with its data and events.
    if (!input.contactId && input.email) {
      const page = await api.data<{ data: Array<{ id: string; email: string }> }>('get', '/contacts', { search: input.email, limit: 100 });
      const known = page.data.find((c) => c.email.toLowerCase() === input.email!.toLowerCase());
      if (known) Object.assign(body, { contactId: known.id, contact: undefined });
    }
    const simulation = await api.data<Simulation>('post', '/workflows/{id}/simulate', body);
    return {
      workflow: {
        id: workflow.id,
        name: workflow.name,
        enabled: workflow.enabled,
        trigger: workflow.triggerConfig.eventName ?? workflow.triggerType,
      },
      outcome: `${simulation.status}${simulation.endedAfter ? ` after ${simulation.endedAfter}` : ''}`,
      steps: simulation.steps.map(lineOf),
      simulation,
    };
  },
};
