import type { EntityManager } from '@mikro-orm/postgresql';
import { dataLimitIssues } from '../../contacts/custom-fields';
import { isTooManyFieldsError, TOO_MANY_FIELDS_MESSAGE } from '../../contacts/data-limits';
import { updateContact } from '../../contacts/write';
import { StepFailed } from './errors';
import type { UpdateContactConfig } from '../../../../workflows/automation/definition';
import type { LiveExecution } from '../records';

/**
 * UPDATE_CONTACT through the contacts module, so the custom-field rules hold and a subscription flip emits
 * its contact.* event. Values given as `{ value, persistent: false }` are not stored: they join the execution
 * context, for later steps. Applying the same patch again changes nothing, so a retry is harmless.
 */
export async function applyContactUpdate(em: EntityManager, live: LiveExecution, config: UpdateContactConfig) {
  // A config saved before the data limits, or a project already at its field limit, fails the step once
  // instead of being retried forever.
  const [breach] = config.data ? dataLimitIssues(config.data) : [];
  if (breach) throw new StepFailed(breach.message);
  try {
    const write = await updateContact(em, live.execution.projectId, live.contact.id, { data: config.data, subscribed: config.subscribed });
    return { variables: write.variables, subscriptionChanged: write.flip };
  } catch (err) {
    if (isTooManyFieldsError(err)) throw new StepFailed(TOO_MANY_FIELDS_MESSAGE);
    throw err;
  }
}
