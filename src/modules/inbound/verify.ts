import { authenticate } from 'mailauth';
import type { DnsResolver } from '../../dns/resolver';
import type { AuthResults } from './stored';

export interface Arrival {
  /** The connecting client's address. */
  ip: string;
  helo: string;
  /** MAIL FROM, empty for a bounce. */
  envelopeFrom: string;
}

/**
 * SPF, DKIM and DMARC of an inbound message from mailauth, an independent verifier, over the deployment's
 * resolvers (DNS_SERVERS); and the Authentication-Results (and Received-SPF) lines it writes. A failure is
 * recorded, never a refusal (docs/smtp.md).
 */
export async function verifyArrival(
  raw: Buffer,
  arrival: Arrival,
  dns: DnsResolver,
  mta: string,
): Promise<{ auth: AuthResults; headers: string }> {
  const result = await authenticate(raw, {
    ip: arrival.ip,
    helo: arrival.helo,
    sender: arrival.envelopeFrom,
    mta,
    disableArc: true,
    disableBimi: true,
    resolver: (name, rrtype) => dns.resolve(name, rrtype) as Promise<string[] | string[][]>,
  });
  const dkim = result.dkim.results ?? [];
  return {
    auth: {
      spf: result.spf ? result.spf.status.result : 'none',
      dkim: dkim.some((r) => r.status.result === 'pass') ? 'pass' : (dkim[0]?.status.result ?? 'none'),
      dmarc: result.dmarc ? result.dmarc.status.result : 'none',
    },
    headers: result.headers,
  };
}
