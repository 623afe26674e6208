import type { DnsResolver } from '../../dns/resolver';
import type { DnsRecordState } from './entities';
import { mxStatus, recordStatus } from './records';

/** Answers meaning the name or its TXT records do not exist, as opposed to a resolver that failed. */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

/** TXT strings at `name` with their character-string chunks joined, or null when the lookup itself failed. */
async function publishedTxt(dns: DnsResolver, name: string): Promise<string[] | null> {
  try {
    return (await dns.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
    return null;
  }
}

/** MX exchanges at `name`, or null when the lookup itself failed. */
async function publishedMx(dns: DnsResolver, name: string): Promise<string[] | null> {
  try {
    return (await dns.resolveMx(name)).map((mx) => mx.exchange);
  } catch (err) {
    if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
    return null;
  }
}

/**
 * The records with their current status. A record whose lookup failed (timeout, SERVFAIL) keeps its previous
 * status: a flaky resolver must not take a verified domain back to pending.
 */
export function checkRecords(dns: DnsResolver, records: DnsRecordState[]): Promise<DnsRecordState[]> {
  return Promise.all(
    records.map(async (record): Promise<DnsRecordState> => {
      if (record.type === 'MX') {
        const exchanges = await publishedMx(dns, record.name);
        return exchanges ? { ...record, status: mxStatus(record, exchanges) } : record;
      }
      const published = await publishedTxt(dns, record.name);
      return published ? { ...record, status: recordStatus(record, published) } : record;
    }),
  );
}
