import disposableDomains from 'disposable-email-domains/index.json';
import disposableWildcards from 'disposable-email-domains/wildcard.json';
import freeProviderDomains from 'email-providers/all.json';
import { ALIAS_DOMAINS } from './alias-domains';
import { selfAndParents } from './domain-names';

const lowercase = (list: string[]) => new Set(list.map((d) => d.toLowerCase()));

/**
 * Membership tests over the bundled lists. Disposable wildcards and alias services also match subdomains
 * (addy.io gives users their own subdomain); the free-provider list is matched exactly because it holds
 * some second-level suffixes such as `com.ar`.
 */
class DomainLists {
  private readonly disposableExact = lowercase(disposableDomains);
  private readonly disposableWildcard = lowercase(disposableWildcards);
  private readonly freeProviders = lowercase(freeProviderDomains);
  private readonly aliases = lowercase(ALIAS_DOMAINS);

  isDisposable(domain: string): boolean {
    return this.disposableExact.has(domain) || selfAndParents(domain).some((d) => this.disposableWildcard.has(d));
  }

  isFreeProvider(domain: string): boolean {
    return this.freeProviders.has(domain);
  }

  isAlias(domain: string): boolean {
    return selfAndParents(domain).some((d) => this.aliases.has(d));
  }
}

let lists: DomainLists | undefined;

/** Built on first use: the disposable list has over 100,000 entries. */
export const domainLists = (): DomainLists => (lists ??= new DomainLists());
