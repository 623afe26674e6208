import { promises as dns } from 'node:dns';

export type DnsResolver = dns.Resolver;

/** Every DNS lookup Postwire makes goes through this resolver, pointed at DNS_SERVERS when set. */
export function createDnsResolver(servers: string[]): DnsResolver {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}
