import type { Config } from '../../config';
import type { TemporalGateway } from '../../temporal/client';
import type { DoubleOptIn } from '../contacts/double-opt-in';
import { assertConfirmationTemplate } from './confirmation-email';
import { requestConfirmation } from './confirmations';

/**
 * `POST /contacts` with `doubleOptIn`: the contact just written is asked to confirm; confirming subscribes it
 * (its data was stored with the request: the caller holds the project's key).
 */
export const contactDoubleOptIn =
  (deps: { config: Config; temporal: TemporalGateway }): DoubleOptIn =>
  async (em, projectId, contact, templateId) => {
    await assertConfirmationTemplate(em, projectId, templateId, 'confirmationTemplateId');
    return requestConfirmation(em, deps, {
      projectId,
      contact: { id: contact.id, email: contact.email, subscribed: contact.subscribed, data: contact.data },
      formId: null,
      templateId,
      intent: { subscribe: true, topicIds: [], data: {} },
    });
  };
