import type { DnsResolver } from '../../dns/resolver';
import { selfAndParents } from './domain-names';

type Answer<T> =
  | { kind: 'records'; records: T[] }
  /** NXDOMAIN: the name does not exist. */
  | { kind: 'absent' }
  /** The name exists but has no records of the type asked. */
  | { kind: 'empty' }
  /** Timeout, SERVFAIL, refused: nothing is known. */
  | { kind: 'failed' };

async function ask<T>(lookup: () => Promise<T[]>): Promise<Answer<T>> {
  try {
    const records = await lookup();
    return records.length > 0 ? { kind: 'records', records } : { kind: 'empty' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOTFOUND' ? { kind: 'absent' } : code === 'ENODATA' ? { kind: 'empty' } : { kind: 'failed' };
  }
}

export interface DnsFacts {
  /** Nameservers serve the domain: NS records at the name, or at a parent zone of a name that exists. */
  hasNameservers: boolean;
  /** MX records other than RFC 7505's "null MX", which says the domain takes no mail. */
  hasMxRecords: boolean;
  hasAddress: boolean;
  /** A lookup failed for another reason than an answer; the facts above may be incomplete. */
  lookupFailed: boolean;
}

/**
 * A subdomain such as `mail.example.com` exists without NS records of its own; the walk up stops at a name
 * that does not exist, so `nowhere.co.uk` is not served by the nameservers of `co.uk`.
 */
async function nameservers(dns: DnsResolver, domain: string): Promise<Answer<string>> {
  let last: Answer<string> = { kind: 'absent' };
  for (const name of selfAndParents(domain)) {
    last = await ask(() => dns.resolveNs(name));
    if (last.kind !== 'empty') return last;
  }
  return last;
}

/** What DNS says about a mail domain, asked only of the configured resolvers (DNS_SERVERS). */
export async function dnsFacts(dns: DnsResolver, domain: string): Promise<DnsFacts> {
  const [ns, mx, a, aaaa] = await Promise.all([
    nameservers(dns, domain),
    ask(() => dns.resolveMx(domain)),
    ask(() => dns.resolve4(domain)),
    ask(() => dns.resolve6(domain)),
  ]);
  const exchanges = mx.kind === 'records' ? mx.records.filter((r) => r.exchange !== '' && r.exchange !== '.') : [];
  return {
    hasNameservers: ns.kind === 'records',
    hasMxRecords: exchanges.length > 0,
    hasAddress: a.kind === 'records' || aaaa.kind === 'records',
    lookupFailed: [ns, mx, a, aaaa].some((answer) => answer.kind === 'failed'),
  };
}
