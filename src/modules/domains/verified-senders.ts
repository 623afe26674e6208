import type { EntityManager } from '@mikro-orm/postgresql';
import { domainOfAddress } from './hostname';
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

/** Expiry time by `projectId domain`. Only verified domains are kept, so a newly verified one counts at once. */
const trusted = new Map<string, number>();

const keyOf = (projectId: string, domain: string) => `${projectId} ${domain}`;

function trust(key: string, now: number): void {
  if (trusted.size >= MAX_ENTRIES) {
    for (const [k, expires] of trusted) if (expires <= now) trusted.delete(k);
    if (trusted.size >= MAX_ENTRIES) trusted.clear();
  }
  trusted.set(key, now + TRUST_MS);
}

/** assertVerifiedSender for hot paths: the same answers, from memory while a verified domain is trusted. */
export async function assertRecentlyVerifiedSender(em: EntityManager, projectId: string, fromAddress: string): Promise<void> {
  const name = domainOfAddress(fromAddress);
  const key = name ? keyOf(projectId, name) : null;
  const now = Date.now();
  if (key && (trusted.get(key) ?? 0) > now) return;
  await assertVerifiedSender(em, projectId, fromAddress);
  if (key) trust(key, now);
}

/** Called when a domain is deleted or its verification may have changed. */
export function forgetVerifiedSender(projectId: string, domain: string): void {
  trusted.delete(keyOf(projectId, domain));
}
