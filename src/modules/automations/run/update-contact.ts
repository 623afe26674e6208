import type { EntityManager } from '@mikro-orm/postgresql';
import { dataLimitIssues, toDataPatch } from '../../contacts/custom-fields';
import { isTooManyFieldsError, TOO_MANY_FIELDS_MESSAGE } from '../../contacts/data-limits';
import { flipOf } from '../../contacts/subscription';
import { updateContact } from '../../contacts/write';
import { StepFailed } from './errors';
import type { UpdateContactConfig } from '../../../../workflows/automation/definition';
import type { LiveExecution } from '../records';
import type { SimulatedContact } from '../simulate/run';

/** A config saved before the data limits fails the step once instead of being retried forever. */
function checkLimits(config: UpdateContactConfig): void {
  const [breach] = config.data ? dataLimitIssues(config.data) : [];
  if (breach) throw new StepFailed(breach.message);
}

/**
 * UPDATE_CONTACT through the contacts module, so the custom-field rules hold and a subscription flip emits
 * its contact.* event. Values given as `{ value, persistent: false }` are not stored: they join the execution
 * context, for later steps. Applying the same patch again changes nothing, so a retry is harmless.
 */
export async function applyContactUpdate(em: EntityManager, live: LiveExecution, config: UpdateContactConfig) {
  checkLimits(config);
  try {
    const write = await updateContact(em, live.execution.projectId, live.contact.id, { data: config.data, subscribed: config.subscribed });
    return { variables: write.variables, subscriptionChanged: write.flip };
  } catch (err) {
    // A project already at its field limit.
    if (isTooManyFieldsError(err)) throw new StepFailed(TOO_MANY_FIELDS_MESSAGE);
    throw err;
  }
}

/**
 * A simulated UPDATE_CONTACT (docs/simulation.md): the same custom-field rules (`toDataPatch`: ignored keys,
 * empty values skipped, null deletes, non-persistent values into the context), applied to the simulated
 * contact in memory, key by key as the database write applies them.
 */
export function applySimulatedContactUpdate(contact: SimulatedContact, config: UpdateContactConfig, now: Date) {
  checkLimits(config);
  const patch = toDataPatch(config.data);
  const data = { ...contact.data, ...patch.set };
  for (const key of patch.unset) delete data[key];
  const flip = config.subscribed === undefined ? null : flipOf(contact.subscribed, config.subscribed);
  Object.assign(contact, { data, subscribed: config.subscribed ?? contact.subscribed, updatedAt: now });
  return { variables: patch.variables, subscriptionChanged: flip !== null, flip };
}
