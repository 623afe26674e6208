import type { EntityManager } from '@mikro-orm/postgresql';
import { assertVerifiedSender } from './sender';

/**
 * How long a domain found verified is trusted without asking the database again. /v1/send checks its sender
 * on every request; this spares that query. This process forgets a domain at once when it deletes or
 * re-checks it; a change made by another process (the worker's periodic DNS check) is seen within this time.
 * Mail is never signed for a deleted domain: the delivery pump looks the domain up again when it sends.
 */
const TRUST_MS = 5_000;
/** Entries kept at most; past it, the expired ones are dropped (and all, should none have expired). */
const MAX_ENTRIES = 10_000;

interface Trusted {
  expires: number;
  projectId: string;
  /** The domain's name as stored, to forget it by. */
  domain: string;
}

/**
 * By `projectId` and the address's domain part as written (lowercased): normalizing the name (IDNA) costs
 * more than the lookup spares. Only verified domains are kept, so a newly verified one counts at once.
 */
const trusted = new Map<string, Trusted>();

function trust(key: string, entry: Trusted, now: number): void {
  if (trusted.size >= MAX_ENTRIES) {
    for (const [k, { expires }] of trusted) if (expires <= now) trusted.delete(k);
    if (trusted.size >= MAX_ENTRIES) trusted.clear();
  }
  trusted.set(key, entry);
}

/** assertVerifiedSender for hot paths: the same answers, from memory while a verified domain is trusted. */
export async function assertRecentlyVerifiedSender(em: EntityManager, projectId: string, fromAddress: string): Promise<void> {
  const key = `${projectId} ${fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase()}`;
  const now = Date.now();
  if ((trusted.get(key)?.expires ?? 0) > now) return;
  const domain = await assertVerifiedSender(em, projectId, fromAddress);
  trust(key, { expires: now + TRUST_MS, projectId, domain: domain.domain }, now);
}

/** Called when a domain is deleted or its verification may have changed; rare, so a scan will do. */
export function forgetVerifiedSender(projectId: string, domain: string): void {
  for (const [key, entry] of trusted) if (entry.projectId === projectId && entry.domain === domain) trusted.delete(key);
}
