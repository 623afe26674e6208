import type { DnsResolver } from '../../dns/resolver';
import { dnsFacts } from './dns-facts';
import { domainLists } from './domain-lists';
import type { VerificationResult } from './schemas';
import { typoSuggestion } from './typo';

/** RFC 5321 4.5.3.1: the longest local part and the longest address a mail system must accept. */
const MAX_LOCAL_PART = 64;
const MAX_ADDRESS = 254;

const VALID = 'Email appears to be valid';

/** `/v1/verify` (docs/verify.md): bundled lists and the configured resolvers only. */
export async function verifyEmail(dns: DnsResolver, input: string): Promise<VerificationResult> {
  const email = input.toLowerCase();
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const lists = domainLists();
  const wellFormed = at > 0 && local.length <= MAX_LOCAL_PART && email.length <= MAX_ADDRESS;
  const facts = await dnsFacts(dns, domain);
  const suggestion = typoSuggestion(email, domain);
  const isDisposable = lists.isDisposable(domain);

  const result: VerificationResult = {
    email,
    valid: wellFormed && facts.hasNameservers && facts.hasMxRecords,
    isDisposable,
    isAlias: lists.isAlias(domain),
    isTypo: suggestion !== null,
    isPlusAddressed: local.includes('+'),
    // The free-provider list also names throwaway services and misspellings of big providers (gmial.com):
    // those are disposable or typos, not personal addresses.
    isPersonalEmail: lists.isFreeProvider(domain) && !isDisposable && suggestion === null,
    domainExists: facts.hasNameservers,
    hasWebsite: facts.hasAddress,
    hasMxRecords: facts.hasMxRecords,
    reasons: [],
    ...(suggestion ? { suggestion } : {}),
  };

  const reasons: string[] = [];
  if (!wellFormed)
    reasons.push(`Invalid email format: the local part is at most ${MAX_LOCAL_PART} characters and the address at most ${MAX_ADDRESS}`);
  if (!result.domainExists) reasons.push(`Domain ${domain} does not exist (no nameservers)`);
  else if (!result.hasMxRecords) reasons.push(`Domain ${domain} has no MX records and cannot receive email`);
  if (result.domainExists && !result.hasWebsite) reasons.push(`Domain ${domain} has no website (no A or AAAA record)`);
  if (facts.lookupFailed) reasons.push('A DNS lookup failed; the domain checks may be incomplete');
  if (isDisposable) reasons.push('Email is from a disposable email provider');
  if (result.isAlias) reasons.push('Email is an alias from an email forwarding service');
  if (suggestion) reasons.push(`Possible typo in the domain; did you mean ${suggestion}?`);
  if (result.isPlusAddressed) reasons.push('Email uses plus addressing');
  if (result.isPersonalEmail) reasons.push('Email is from a personal (free) email provider');
  result.reasons = reasons.length > 0 ? reasons : [VALID];
  return result;
}
