import type { Deps } from '../../src/deps';
import { renderStepEmail, sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { EMAIL_ACTIVITY_EVENTS } from '../../src/modules/filters/fields';
import type { SendEmailConfig } from '../../workflows/automation/definition';
import { asActivity, enter, enterSimulation, type StepInput } from './step';
import { suspensionOf } from '../../src/modules/reputation/suspension';

/** A suspended project's reason, or null: the step holds while it is not null (workflows/automation/hold.ts). */
const heldBy = async (deps: Deps, projectId: string) => (await suspensionOf(deps.orm.em.fork(), projectId))?.reason ?? null;

export const sendEmailActivities = (deps: Deps) => ({
  /** Queues the step's email; `held` says the project is suspended, so the email waits and so does the step. */
  async sendAutomationEmail(input: StepInput<SendEmailConfig>): Promise<{ emailId: string | null; to: string; held: string | null }> {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      const live = await enter(em, input.state);
      const sent = await sendStepEmail(deps.config, em, live, { id: input.stepId, config: input.config }, input.context);
      return { ...sent, held: await heldBy(deps, live.execution.projectId) };
    });
  },

  /** Asked by a step held by its project's suspension: still suspended (the reason), or null. */
  async projectSuspension(projectId: string): Promise<string | null> {
    return heldBy(deps, projectId);
  },
});

/** Renders the email as the real step does, and keeps it for the timeline instead of sending it. */
export const simulatedSendEmailActivities = (deps: Deps, runs: SimulationRuns) => ({
  async sendAutomationEmail(input: StepInput<SendEmailConfig>) {
    return asActivity(async () => {
      const run = enterSimulation(runs, input.state);
      const step = { id: input.stepId, config: input.config };
      const { draft, custom } = await renderStepEmail(deps.config, deps.orm.em.fork(), run.live(input.state), step, input.context);
      // The contact's email.sent, as the delivery path records it once the email leaves (not for a CUSTOM recipient).
      if (!custom) run.recorded.push({ name: EMAIL_ACTIVITY_EVENTS.sent, afterMs: run.stepElapsed(input.state) });
      const from = draft.from.name ? `${draft.from.name} <${draft.from.email}>` : draft.from.email;
      run.product(input.stepId).email = { to: draft.to.email, from, subject: draft.subject, html: draft.html, text: draft.text ?? null };
      return { emailId: null, to: draft.to.email, held: null };
    });
  },

  /** A simulation never waits for a suspension. */
  async projectSuspension(_projectId: string): Promise<string | null> {
    return null;
  },
});
