import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import type { QuickWork } from '../../src/modules/automations/run/advance';
import { renderStepEmail, sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { EMAIL_ACTIVITY_EVENTS } from '../../src/modules/filters/fields';
import { suspensionOf } from '../../src/modules/reputation/suspension';
import { cappedUntil, countedEmailTimes, frequencyCapOf } from '../../src/modules/consent/frequency-cap';
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

/**
 * Renders the email as the real step does, and keeps it for the timeline instead of sending it; never held. The
 * frequency cap counts the stored contact's emails and the marketing emails of the simulation's earlier steps.
 */
export const simulatedSendEmailWork =
  (deps: Deps, runs: SimulationRuns): QuickWork<'SEND_EMAIL'> =>
  async (step, { live, state, context, now }) => {
    const run = simulationOf(runs, state);
    const em = deps.orm.em.fork();
    const { draft, custom } = await renderStepEmail(deps.config, em, live, step, context);
    if (draft.marketing && !custom) {
      const at = now - run.origin;
      const cap = await frequencyCapOf(em, run.projectId);
      if (cap) {
        // The stored contact's emails, on the simulation's clock (its start is the real time the request began).
        const stored = run.contact.stored ? await countedEmailTimes(em, run.contact.id, cap.windowDays) : [];
        const until = cappedUntil([...stored.map((t) => t - run.realOrigin), ...run.marketingSent], cap, at);
        if (until !== null && step.config.onCap === 'skip') {
          run.product(step.id).skipped = 'FREQUENCY_CAPPED';
          return { output: { emailId: null, to: draft.to.email, skipped: 'FREQUENCY_CAPPED' } };
        }
        if (until !== null) {
          run.capWaits.add(step.id);
          return { output: null, waitUntil: new Date(run.origin + until).toISOString() };
        }
      }
      run.marketingSent.push(at);
    }
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
