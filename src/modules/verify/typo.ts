import { POPULAR_DOMAINS, run as suggestAddress } from '@zootools/email-spell-checker';
import { domainLists } from './domain-lists';

const POPULAR = new Set(POPULAR_DOMAINS);

/**
 * The corrected address when the domain looks like a misspelt well-known provider (`gmial.com`), else null.
 * Only corrections to a known provider count: the library also "corrects" unknown company domains and rare
 * top-level domains, which would flag valid business addresses.
 */
export function typoSuggestion(email: string, domain: string): string | null {
  const suggestion = suggestAddress({ email });
  if (!suggestion || suggestion.domain === domain) return null;
  const known = POPULAR.has(suggestion.domain) || domainLists().isFreeProvider(suggestion.domain);
  return known ? suggestion.full : null;
}
