import { BlockList, isIP } from 'node:net';
import type { DnsResolver } from '../../../dns/resolver';

/**
 * Where WEBHOOK steps may connect. A URL comes from whoever edits a workflow, so it must not reach the
 * deployment's own network: private, loopback, link-local (cloud metadata at 169.254.169.254 included),
 * carrier-grade NAT, multicast and reserved ranges are refused, for IPv4, IPv6 and IPv4 inside IPv6.
 * Every address a name resolves to must pass, and the request then connects to the address that was
 * checked, so a second DNS answer cannot swap in another one (rebinding).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');
// Azure's wire server answers metadata requests on a public address.
BLOCKED.addAddress('168.63.129.16', 'ipv4');

const METADATA_NAMES = /^(metadata|metadata\.google\.internal|instance-data|instance-data\.ec2\.internal)\.?$/i;
const LOCAL_NAMES = /(^|\.)localhost\.?$/i;

export class WebhookRefused extends Error {}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

const isBlockedAddress = (address: string) => BLOCKED.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Which addresses requests may reach. */
export interface AddressPolicy {
  allows(address: string): boolean;
  /** Whether `localhost` and metadata names may be used (they resolve to loopback or link-local addresses). */
  allowsLocalNames: boolean;
}

/** The deployment's policy: the public internet only, unless WEBHOOK_ALLOW_PRIVATE lifts the rules. */
export const addressPolicy = (allowPrivate: boolean): AddressPolicy =>
  allowPrivate ? { allows: () => true, allowsLocalNames: true } : { allows: (a) => !isBlockedAddress(a), allowsLocalNames: false };

/** Answers that say the name has no such records; other failures (timeouts, SERVFAIL) may pass. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

async function resolveAll(dns: DnsResolver, hostname: string): Promise<ResolvedTarget[]> {
  const failures: unknown[] = [];
  const settle = <T>(p: Promise<T[]>) => p.catch((err: unknown): T[] => (failures.push(err), []));
  const [v4, v6] = await Promise.all([settle(dns.resolve4(hostname)), settle(dns.resolve6(hostname))]);
  const found = [...v4.map((address) => ({ address, family: 4 as const })), ...v6.map((address) => ({ address, family: 6 as const }))];
  const transient = failures.find((err) => !ABSENT.has((err as { code?: string }).code ?? ''));
  // Retried by the activity: the resolvers may answer next time.
  if (found.length === 0 && transient) throw transient;
  return found;
}

/**
 * The address to connect to for `hostname` (as `URL.hostname` gives it), resolved through the deployment's
 * resolvers. Throws WebhookRefused when the name does not resolve, or the policy refuses any of its addresses.
 */
export async function resolveTarget(dns: DnsResolver, hostname: string, policy: AddressPolicy): Promise<ResolvedTarget> {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(literal);
  if (family) {
    if (!policy.allows(literal)) throw new WebhookRefused(`${literal} is a private, loopback, link-local or reserved address`);
    return { address: literal, family: family as 4 | 6 };
  }
  if (LOCAL_NAMES.test(hostname) || METADATA_NAMES.test(hostname)) {
    if (!policy.allowsLocalNames) throw new WebhookRefused(`${hostname} names a local or metadata service`);
    if (LOCAL_NAMES.test(hostname)) return { address: '127.0.0.1', family: 4 };
  }
  const addresses = await resolveAll(dns, hostname);
  if (addresses.length === 0) throw new WebhookRefused(`${hostname} does not resolve`);
  const blocked = addresses.find((a) => !policy.allows(a.address));
  if (blocked) throw new WebhookRefused(`${hostname} resolves to ${blocked.address}, a private, loopback, link-local or reserved address`);
  return addresses[0]!;
}
