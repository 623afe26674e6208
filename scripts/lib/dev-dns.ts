import { Resolver } from 'node:dns/promises';
import pg from 'pg';
import { DnsServer, type DnsRecord } from './dns-server';

/** The system's resolvers, for every name that is not a domain added to a project. */
async function systemRecords(resolver: Resolver, name: string, type: DnsRecord['type']): Promise<DnsRecord[] | undefined> {
  try {
    switch (type) {
      case 'TXT':
        return (await resolver.resolveTxt(name)).map((chunks) => ({ type, value: chunks.join('') }));
      case 'MX':
        return (await resolver.resolveMx(name)).map((mx) => ({ type, exchange: mx.exchange, priority: mx.priority }));
      case 'A':
        return (await resolver.resolve4(name)).map((address) => ({ type, address }));
      case 'AAAA':
        return (await resolver.resolve6(name)).map((address) => ({ type, address }));
      case 'NS':
        return (await resolver.resolveNs(name)).map((ns) => ({ type, ns }));
    }
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENODATA' ? [] : undefined;
  }
}

/**
 * The DNS server `npm start` runs on loopback for development (docs/sandbox.md): for every domain added to a
 * project it publishes the records the API asked for (DKIM, SPF, DMARC, inbound MX), read from the database at each
 * question, so that a domain added while developing verifies through the normal DNS check. Other names are
 * answered from the system's resolvers, so that /v1/verify still sees the real world.
 */
export async function startDevDns(port: number, databaseUrl: string): Promise<{ address: string; stop(): Promise<void> }> {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  const server = await DnsServer.start({
    port,
    fallback: async (name, type) => {
      const { rows } = await db.query<{ type: string; value: string | null; priority: number | null }>(
        `select r->>'type' as type, r->>'value' as value, (r->>'priority')::int as priority from domains d, jsonb_array_elements(d.records) r
         where lower(r->>'name') = $1
         union all select null, null, null from domains where lower(domain) = $1 limit 50`,
        [name],
      );
      if (rows.length === 0) return systemRecords(resolver, name, type);
      return rows.flatMap((r): DnsRecord[] => {
        if (r.type !== type || !r.value) return [];
        if (type === 'TXT') return [{ type, value: r.value }];
        return type === 'MX' ? [{ type, exchange: r.value, priority: r.priority ?? 10 }] : [];
      });
    },
  });
  return {
    address: server.address,
    stop: async () => {
      await server.close();
      await db.end();
    },
  };
}
