import type { DnsRecordState, MxRecordState, RecordStatus, TxtRecordState } from './entities';

/** The records a user creates for a new domain: DKIM (gates verification), then recommended SPF and DMARC. */
export function expectedRecords(domain: string, selector: string, dkimPublicKey: string, spfInclude: string): TxtRecordState[] {
  const pending = { type: 'TXT', status: 'PENDING' } as const;
  return [
    { ...pending, purpose: 'DKIM', name: `${selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${dkimPublicKey}` },
    { ...pending, purpose: 'SPF', name: domain, value: `v=spf1 include:${spfInclude} ~all` },
    { ...pending, purpose: 'DMARC', name: `_dmarc.${domain}`, value: 'v=DMARC1; p=none' },
  ];
}

/** The MX record a domain with inbound on publishes: mail for it reaches the inbound SMTP server. */
export const inboundRecord = (domain: string, mxHost: string): MxRecordState => ({
  type: 'MX',
  name: domain,
  value: mxHost,
  priority: 10,
  purpose: 'inbound',
  status: 'PENDING',
});

/** The records with the MX record of inbound mail present or absent as `inbound` says, the others as they were. */
export function withInboundRecord(records: DnsRecordState[], domain: string, mxHost: string, inbound: boolean): DnsRecordState[] {
  const others = records.filter((r) => r.purpose !== 'inbound');
  const current = records.find((r) => r.purpose === 'inbound' && r.value === mxHost);
  return inbound ? [...others, current ?? inboundRecord(domain, mxHost)] : others;
}

const hostOf = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** An MX record's status given the exchanges published at its name: ours among them, or others only. */
export function mxStatus(expected: MxRecordState, exchanges: string[]): RecordStatus {
  if (exchanges.length === 0) return 'PENDING';
  return exchanges.some((e) => hostOf(e) === hostOf(expected.value)) ? 'VERIFIED' : 'FAILED';
}

/** DKIM tag list (RFC 6376 3.2): `tag=value` pairs split by `;`; whitespace inside values is folding, not data. */
function dkimTags(txt: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const pair of txt.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) tags.set(pair.slice(0, eq).trim().toLowerCase(), pair.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

const startsWithTag = (tag: string) => (txt: string) => txt.trim().toLowerCase().startsWith(tag.toLowerCase());
const isSpf = startsWithTag('v=spf1');
const isDmarc = startsWithTag('v=DMARC1');

const spfIncludes = (txt: string) =>
  txt
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term.startsWith('include:'));

/**
 * The status of an expected record given the TXT strings published at its name (chunks already joined).
 * PENDING: nothing relevant is published. VERIFIED: it matches. FAILED: something is there but does not
 * match, e.g. an old DKIM key, an SPF record without our include, or two SPF or DMARC records (which RFC
 * 7208 and 7489 treat as errors).
 */
export function recordStatus(expected: TxtRecordState, published: string[]): RecordStatus {
  switch (expected.purpose) {
    case 'DKIM': {
      if (published.length === 0) return 'PENDING';
      const key = dkimTags(expected.value).get('p');
      const matches = published.map(dkimTags).some((t) => t.get('p') === key && (t.get('k') ?? 'rsa').toLowerCase() === 'rsa');
      return matches ? 'VERIFIED' : 'FAILED';
    }
    case 'SPF': {
      const spf = published.filter(isSpf);
      if (spf.length === 0) return 'PENDING';
      const present = spf.length === 1 ? spfIncludes(spf[0]!) : [];
      return spf.length === 1 && spfIncludes(expected.value).every((inc) => present.includes(inc)) ? 'VERIFIED' : 'FAILED';
    }
    case 'DMARC': {
      const dmarc = published.filter(isDmarc);
      return dmarc.length === 0 ? 'PENDING' : dmarc.length === 1 ? 'VERIFIED' : 'FAILED';
    }
  }
}
