import type { EntityManager } from '@mikro-orm/postgresql';
import type { Contact } from './entities';

/** What `POST /contacts` with `doubleOptIn` answers in `_meta.confirmation`. */
export interface ConfirmationMeta {
  status: 'SENT' | 'RESENT' | 'NOT_RESENT';
  expiresAt: string;
}

/**
 * Asks the contact, just written in `em`'s transaction, to confirm by the link mailed with `templateId`
 * (docs/consent.md "Double opt-in"). The consent module lends it from the composition root, as contacts may
 * not import what builds on them.
 */
export type DoubleOptIn = (em: EntityManager, projectId: string, contact: Contact, templateId: string) => Promise<ConfirmationMeta>;
