import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../contacts/entities';
import { updateContact } from '../contacts/write';
import { subscriptionLinks, type LinkSettings } from '../links/subscription';
import { Project } from '../projects/entities';
import { contactOfToken } from '../links/preference-token';
import type { PreferenceView } from './views';

/** Why a subscription page flipped a contact: the `reason` of its contact.(un)subscribed event. */
export type PreferenceReason = 'unsubscribe_page' | 'one_click' | 'subscribe_page' | 'preferences_page';

/** The contact a page's token names, or null for a token that is forged, malformed or of a deleted contact. */
async function contactOf(em: EntityManager, config: LinkSettings, token: string): Promise<Contact | null> {
  const id = contactOfToken(config, token);
  return id ? em.findOne(Contact, { id }) : null;
}

async function viewOf(em: EntityManager, config: LinkSettings, contact: Contact): Promise<PreferenceView> {
  const project = await em.findOneOrFail(Project, { id: contact.projectId });
  return { email: contact.email, projectName: project.name, subscribed: contact.subscribed, links: subscriptionLinks(config, contact.id) };
}

export async function preferencesOf(em: EntityManager, config: LinkSettings, token: string): Promise<PreferenceView | null> {
  const contact = await contactOf(em, config, token);
  return contact ? viewOf(em, config, contact) : null;
}

/**
 * Sets the contact's subscription through the contacts module, so that a change emits contact.subscribed or
 * contact.unsubscribed with `{ reason }`; setting the state it already has changes and emits nothing.
 */
export async function setSubscribed(
  em: EntityManager,
  config: LinkSettings,
  token: string,
  subscribed: boolean,
  reason: PreferenceReason,
): Promise<PreferenceView | null> {
  const found = await contactOf(em, config, token);
  if (!found) return null;
  const { contact } = await updateContact(em, found.projectId, found.id, { subscribed }, { reason });
  return viewOf(em, config, contact);
}
