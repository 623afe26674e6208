import { BlockList, isIP } from 'node:net';
import type { Next } from 'koa';
import type { AppContext } from './context';

/**
 * The client's address (docs/security.md "Client addresses"): the socket's peer, unless that peer is a proxy
 * named in TRUSTED_PROXIES; then `X-Forwarded-For` is read from the right, each trusted proxy's entry naming
 * the hop before it, and the first address that is no trusted proxy is the client. Entries to its left were
 * written by the client itself and never count. The `X-Forwarded-*` headers of any other peer are dropped, so
 * nothing downstream (Koa's `ctx.ip`, `ctx.protocol`, `ctx.host`, the secure cookie) can read them.
 */

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'] as const;

/** `::ffff:127.0.0.1`, as a dual-stack socket reports an IPv4 peer, is `127.0.0.1`. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The TRUSTED_PROXIES entries (addresses and CIDR ranges, checked by the settings) as one list. */
export function trustedProxies(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    if (prefix === undefined) list.addAddress(unmapped(address), family(address));
    else list.addSubnet(unmapped(address), Number(prefix), family(address));
  }
  return list;
}

const isTrusted = (address: string, proxies: BlockList) => isIP(address) !== 0 && proxies.check(address, family(address));

/** The client's address for a request from `peer` carrying `forwardedFor`, trusting the proxies in `proxies`. */
export function clientAddressOf(peer: string, forwardedFor: string | undefined, proxies: BlockList): string {
  let client = unmapped(peer);
  const hops = (forwardedFor ?? '').split(',').map((hop) => unmapped(hop.trim()));
  while (isTrusted(client, proxies)) {
    const hop = hops.pop();
    // Nothing more, or not an address: the last trusted proxy is as far as anyone vouches for.
    if (hop === undefined || isIP(hop) === 0) break;
    client = hop;
  }
  return client;
}

export function clientAddress(entries: string[]) {
  const proxies = trustedProxies(entries);
  return async (ctx: AppContext, next: Next) => {
    const peer = unmapped(ctx.req.socket.remoteAddress ?? '');
    if (isTrusted(peer, proxies)) {
      ctx.request.ip = clientAddressOf(peer, ctx.get('x-forwarded-for') || undefined, proxies);
    } else {
      for (const header of FORWARDED_HEADERS) delete ctx.req.headers[header];
      ctx.request.ip = peer;
    }
    await next();
  };
}
