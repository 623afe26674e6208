import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEmailEvent } from '../emails/email-events';
import { advanceEmail } from '../emails/status';

/**
 * An open: the email moves to OPENED (unless it is further along) and its first open time stays. Only the
 * first open records `email.open`, since mail clients and image proxies load a pixel again and again.
 */
export async function recordOpen(em: EntityManager, emailId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const email = await advanceEmail(tx, emailId, 'OPENED');
    if (email?.first) recordEmailEvent(tx, email, 'email.open');
  });
}

/** A click: the email moves to CLICKED, and every click records `email.click` with the link followed. */
export async function recordClick(em: EntityManager, emailId: string, link: string): Promise<void> {
  await em.transactional(async (tx) => {
    const email = await advanceEmail(tx, emailId, 'CLICKED');
    if (email) recordEmailEvent(tx, email, 'email.click', { link });
  });
}
