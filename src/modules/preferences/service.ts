import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/client';
import { Contact } from '../contacts/entities';
import { updateContact } from '../contacts/write';
import { resumeContact, snoozeContact, type SnoozePeriod } from '../consent/snooze';
import { subscriptionLinks, type LinkSettings } from '../links/subscription';
import { Project } from '../projects/entities';
import { contactOfToken } from '../links/preference-token';
import { changeTopics, topicsOfContact, type TopicChange, type TopicReason } from '../topics/memberships';
import type { PreferenceView } from './views';

/** Why a subscription page flipped a contact: the `reason` of its contact.(un)subscribed event. */
export type PreferenceReason = 'unsubscribe_page' | 'one_click' | 'subscribe_page' | 'preferences_page';

export interface PageDeps {
  config: LinkSettings;
  temporal: TemporalGateway;
  logger: Logger;
}

/** The contact a page's token names, or null for a token that is forged, malformed or of a deleted contact. */
async function contactOf(em: EntityManager, config: LinkSettings, token: string): Promise<Contact | null> {
  const id = contactOfToken(config, token);
  return id ? em.findOne(Contact, { id }) : null;
}

async function viewOf(em: EntityManager, config: LinkSettings, contact: Contact): Promise<PreferenceView> {
  const project = await em.findOneOrFail(Project, { id: contact.projectId });
  const [consent] = await em.execute<Array<{ snoozed_until: string | null }>>(
    'select "snoozed_until" from contact_consent where "contact_id" = ?',
    [contact.id],
  );
  return {
    email: contact.email,
    projectName: project.name,
    subscribed: contact.subscribed,
    links: subscriptionLinks(config, contact.id),
    topics: await topicsOfContact(em, contact.projectId, contact.id),
    snoozedUntil: consent?.snoozed_until ? new Date(consent.snoozed_until) : null,
    topic: null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The page of the contact a token names, or null for a bad token. `topicId` (an unsubscribe link of mail about
 * a topic) scopes the page to that topic when it is one of the contact's project; otherwise it is ignored.
 */
export async function preferencesOf(
  em: EntityManager,
  config: LinkSettings,
  token: string,
  topicId?: string,
): Promise<PreferenceView | null> {
  const contact = await contactOf(em, config, token);
  if (!contact) return null;
  const view = await viewOf(em, config, contact);
  const topic = topicId && UUID.test(topicId) ? view.topics.find((t) => t.topicId === topicId.toLowerCase()) : undefined;
  return topic ? { ...view, topic } : view;
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

/** Joins and leaves topics for the contact a token names; topics that are not its project's are ignored. */
export async function setTopics(
  em: EntityManager,
  config: LinkSettings,
  token: string,
  changes: TopicChange[],
  reason: TopicReason,
): Promise<PreferenceView | null> {
  const contact = await contactOf(em, config, token);
  if (!contact) return null;
  await changeTopics(em, contact.projectId, contact.id, changes, reason);
  return viewOf(em, config, contact);
}

/** Snoozes (a period) or resumes (null) the contact a token names (docs/consent.md "Snooze"). */
export async function setSnooze(
  em: EntityManager,
  deps: PageDeps,
  token: string,
  period: SnoozePeriod | null,
): Promise<PreferenceView | null> {
  const contact = await contactOf(em, deps.config, token);
  if (!contact) return null;
  const ref = { projectId: contact.projectId, contactId: contact.id };
  if (period === null) await resumeContact(em, deps, ref, 'preferences_page');
  else await snoozeContact(em, deps.temporal, ref, period, 'preferences_page');
  return viewOf(em, deps.config, contact);
}
