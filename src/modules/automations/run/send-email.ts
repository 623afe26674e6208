import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../config';
import { draftFor } from '../../emails/draft';
import { enqueueEmails, type RenderedDraft } from '../../emails/enqueue';
import { executePrepared } from '../../../db/prepared';
import type { TemplateType } from '../../templates/entities';
import { TemplateError } from '../../templates/render';
import type { SendEmailConfig } from '../../../../workflows/automation/definition';
import { StepFailed } from './errors';
import { simulatorRefusal } from '../../sandbox/addresses';
import { marketingRefusal, type MarketingRefusal } from '../../consent/rules';
import { frequencyCapOf, lockForCap, stepCappedUntil } from '../../consent/frequency-cap';
import type { LiveExecution } from '../records';

interface TemplateRow {
  id: string;
  subject: string;
  body: string;
  text: string | null;
  from: string;
  from_name: string | null;
  reply_to: string | null;
  type: TemplateType;
}

// Every SEND_EMAIL reads its template: a prepared statement, without the ORM's unit of work.
const TEMPLATE = `
select "id", "subject", "body", "text", "from_address" as "from", "from_name", "reply_to", "type" from templates
where "id" = ? and "project_id" = ?`;

/**
 * The email of a SEND_EMAIL step: the template rendered for the contact, with the execution context as the
 * request's data (so trigger and awaited event data are template variables). A simulation stops here.
 */
export async function renderStepEmail(
  config: Config,
  em: EntityManager,
  live: LiveExecution,
  step: { id: string; config: SendEmailConfig },
  context: Record<string, unknown>,
): Promise<{ draft: RenderedDraft; custom: boolean }> {
  const { execution, contact } = live;
  const [template] = await executePrepared<TemplateRow>(em, 'automation_step_template', TEMPLATE, [
    step.config.templateId,
    execution.projectId,
  ]);
  if (!template) throw new StepFailed(`Template ${step.config.templateId} no longer exists`);
  const custom = step.config.recipient?.type === 'CUSTOM' ? step.config.recipient.email : undefined;
  const to = custom ?? contact.email;
  const refusal = simulatorRefusal(config, to);
  if (refusal !== null) throw new StepFailed(`No email sent: ${to} ${refusal}`);
  const content = {
    subject: template.subject,
    body: template.body,
    text: template.text,
    from: { email: template.from, name: template.from_name },
    replyTo: template.reply_to,
    marketing: template.type === 'MARKETING',
    templateId: template.id,
    tags: step.config.tags ?? {},
    topicId: step.config.topicId ?? null,
  };
  try {
    const draft = await draftFor(config, content, {
      projectId: execution.projectId,
      contact,
      sourceType: 'WORKFLOW',
      to: { email: to },
      data: context,
    });
    return { draft, custom: custom !== undefined };
  } catch (err) {
    if (err instanceof TemplateError) throw new StepFailed(`Template ${template.id} does not render: ${err.message}`);
    throw err;
  }
}

/** Why a SEND_EMAIL sent nothing: the consent rule's refusal, or the project's frequency cap. */
export type StepEmailSkip = MarketingRefusal | 'FREQUENCY_CAPPED';

/** What a SEND_EMAIL did; `cappedUntil` (ISO) when the frequency cap held its email back, until then. */
export interface StepEmailResult {
  emailId: string | null;
  to: string;
  skipped?: StepEmailSkip;
  cappedUntil?: string;
}

/**
 * SEND_EMAIL: renders the email and hands it to the delivery path. The email is keyed by (execution, step): an
 * activity that runs again finds the email it made and does not send twice. Marketing to the execution's
 * contact goes only where consent allows (docs/consent.md "Who gets marketing") and the project's frequency cap
 * leaves room (consent/frequency-cap.ts, counted at `now`, the workflow's clock); otherwise the step is done
 * without an email and says why (`skipped`).
 */
export async function sendStepEmail(
  config: Config,
  em: EntityManager,
  live: LiveExecution,
  step: { id: string; config: SendEmailConfig },
  context: Record<string, unknown>,
  now: Date,
): Promise<StepEmailResult> {
  const { draft, custom } = await renderStepEmail(config, em, live, step, context);
  const to = draft.to.email;
  const workflow = { executionId: live.execution.id, stepId: step.id };
  const enqueue = async (tx: EntityManager) =>
    (await enqueueEmails(tx, [{ ...draft, contactId: custom ? null : live.contact.id, workflow }]))[0]!.id;
  if (!draft.marketing || custom) return { emailId: await enqueue(em), to };
  const skipped = await marketingRefusal(em, live.contact.id, step.config.topicId ?? null);
  if (skipped) return { emailId: null, to, skipped };
  const cap = await frequencyCapOf(em, live.execution.projectId);
  if (!cap) return { emailId: await enqueue(em), to };
  return em.transactional(async (tx) => {
    await lockForCap(tx, { sql: '?::uuid', params: [live.contact.id] });
    const until = await stepCappedUntil(tx, cap, live.contact.id, now, workflow);
    if (until) return { emailId: null, to, skipped: 'FREQUENCY_CAPPED', cappedUntil: until.toISOString() };
    return { emailId: await enqueue(tx), to };
  });
}
