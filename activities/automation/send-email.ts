import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import type { QuickWork } from '../../src/modules/automations/run/advance';
import { renderStepEmail, sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { EMAIL_ACTIVITY_EVENTS } from '../../src/modules/filters/fields';
import { suspensionOf } from '../../src/modules/reputation/suspension';
import type { SendEmailConfig } from '../../workflows/automation/definition';
import { asActivity, enter, simulationOf, type StepInput } from './step';

/** A suspended project's reason, or null: the step holds while it is not null (workflows/automation/hold.ts). */
const heldBy = async (em: EntityManager, projectId: string) => (await suspensionOf(em, projectId))?.reason ?? null;

/**
 * SEND_EMAIL in advanceAutomation: the email handed to the delivery path, keyed by (execution, step). While the
 * project is suspended the email is queued all the same (the pump holds it) and the step is held after it.
 */
export const sendEmailWork =
  (deps: Deps, em: EntityManager): QuickWork<'SEND_EMAIL'> =>
  async (step, { live, context, now }) => {
    const { cappedUntil, ...output } = await sendStepEmail(deps.config, em, live, step, context, new Date(now));
    // Over the frequency cap: the step waits until the cap allows the email (onCap "wait"), or goes on without it.
    if (cappedUntil && step.config.onCap !== 'skip') return { output: null, waitUntil: cappedUntil };
    return { output: { ...output }, held: await heldBy(em, live.execution.projectId) };
  };

/** Renders the email as the real step does, and keeps it for the timeline instead of sending it; never held. */
export const simulatedSendEmailWork =
  (deps: Deps, runs: SimulationRuns): QuickWork<'SEND_EMAIL'> =>
  async (step, { live, state, context }) => {
    const run = simulationOf(runs, state);
    const { draft, custom } = await renderStepEmail(deps.config, deps.orm.em.fork(), live, step, context);
    // The contact's email.sent, as the delivery path records it once the email leaves (not for a CUSTOM recipient).
    if (!custom) run.recorded.push({ name: EMAIL_ACTIVITY_EVENTS.sent, afterMs: run.stepElapsed(state) });
    const from = draft.from.name ? `${draft.from.name} <${draft.from.email}>` : draft.from.email;
    run.product(step.id).email = { to: draft.to.email, from, subject: draft.subject, html: draft.html, text: draft.text ?? null };
    return { output: { emailId: null, to: draft.to.email } };
  };

export const sendEmailActivities = (deps: Deps) => ({
  /**
   * The step's own local activity, for runs started as `automation` (docs/automations.md "Versions"): queues the
   * step's email; `held` says the project is suspended, so the email waits and so does the step.
   */
  async sendAutomationEmail(input: StepInput<SendEmailConfig>): Promise<{ emailId: string | null; to: string; held: string | null }> {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      const live = await enter(em, input.state);
      // Runs of this first version cannot wait: an email over the frequency cap is skipped.
      const { cappedUntil: _, ...sent } = await sendStepEmail(
        deps.config,
        em,
        live,
        { id: input.stepId, config: input.config },
        input.context,
        new Date(),
      );
      return { ...sent, held: await heldBy(em, live.execution.projectId) };
    });
  },

  /** Asked by a step held by its project's suspension: still suspended (the reason), or null. */
  async projectSuspension(projectId: string): Promise<string | null> {
    return heldBy(deps.orm.em.fork(), projectId);
  },
});

export const simulatedSendEmailActivities = () => ({
  /** A simulation never waits for a suspension. */
  async projectSuspension(_projectId: string): Promise<string | null> {
    return null;
  },
});
