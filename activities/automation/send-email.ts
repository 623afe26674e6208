import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../src/deps';
import type { QuickWork } from '../../src/modules/automations/run/advance';
import { renderStepEmail, sendStepEmail } from '../../src/modules/automations/run/send-email';
import type { SimulationRuns } from '../../src/modules/automations/simulate/run';
import { EMAIL_ACTIVITY_EVENTS } from '../../src/modules/filters/fields';
import type { SendEmailConfig } from '../../workflows/automation/definition';
import { asActivity, enter, simulationOf, type StepInput } from './step';

/** SEND_EMAIL in advanceAutomation: the email handed to the delivery path, keyed by (execution, step). */
export const sendEmailWork =
  (deps: Deps, em: EntityManager): QuickWork<'SEND_EMAIL'> =>
  async (step, { live, context }) => ({ output: await sendStepEmail(deps.config, em, live, step, context) });

/** Renders the email as the real step does, and keeps it for the timeline instead of sending it. */
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

/** The step's own local activity, for runs started as `automation` (docs/automations.md "Versions"). */
export const sendEmailActivities = (deps: Deps) => ({
  async sendAutomationEmail(input: StepInput<SendEmailConfig>) {
    return asActivity(async () => {
      const em = deps.orm.em.fork();
      return sendStepEmail(deps.config, em, await enter(em, input.state), { id: input.stepId, config: input.config }, input.context);
    });
  },
});
