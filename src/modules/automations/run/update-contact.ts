import type { EntityManager } from '@mikro-orm/postgresql';
import { updateContact } from '../../contacts/write';
import type { UpdateContactConfig } from '../definition';
import type { LiveExecution } from '../records';

/**
 * UPDATE_CONTACT through the contacts module, so the custom-field rules hold and a subscription flip emits
 * its contact.* event. Values given as `{ value, persistent: false }` are not stored: they join the execution
 * context, for later steps. Applying the same patch again changes nothing, so a retry is harmless.
 */
export async function applyContactUpdate(em: EntityManager, live: LiveExecution, config: UpdateContactConfig) {
  const write = await updateContact(em, live.execution.projectId, live.contact.id, { data: config.data, subscribed: config.subscribed });
  return { variables: write.variables, subscriptionChanged: write.flip };
}
