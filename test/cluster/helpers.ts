import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Client as PgClient } from 'pg';
import { Client, Connection } from '@temporalio/client';
import { blockSize, freeBase } from '../../scripts/lib/cluster/layout';
import { startCluster, type Cluster } from '../../scripts/lib/cluster/cluster';
import { DnsServer } from '../../scripts/lib/dns-server';
import { ports } from '../../scripts/lib/ports';
import { SmtpSink } from '../helpers/smtp-sink';
import type { ApiTarget } from '../helpers/stack';
import { client, type Tenant } from '../helpers/tenants';

const APIS = 2;

/** A cluster (scripts/lib/cluster) of its own for a test file, sending to a real SMTP sink and resolving through a real DNS server. */
export interface TestCluster {
  cluster: Cluster;
  smtp: SmtpSink;
  dns: DnsServer;
  /** Each API process as a target of the tenant factory and the HTTP helpers. */
  apis: ApiTarget[];
  temporal: Client;
  /** A statement on the cluster's Postwire database. */
  sql<T>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startTestCluster(env: Record<string, string> = {}): Promise<TestCluster> {
  const smtp = await SmtpSink.start();
  const dns = await DnsServer.start();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'postwire-cluster-'));
  // Past the block of `npm run cluster` (CLUSTER_PORT), so that one may run beside the tests.
  const base = await freeBase(ports.cluster + blockSize(APIS), APIS);
  const cluster = await startCluster({
    dir,
    base,
    apis: APIS,
    // A killed worker's emails are taken over within seconds (docs/delivery.md).
    env: { SMTP_URL: smtp.url, DNS_SERVERS: dns.address, DELIVERY_LEASE_MS: '5000', ...env },
  }).catch(async (err: unknown) => {
    await Promise.all([smtp.close(), dns.close(), rm(dir, { recursive: true, force: true })]);
    throw err;
  });
  const connection = await Connection.connect({ address: cluster.temporalAddress });
  const pg = new PgClient({ connectionString: cluster.databaseUrl });
  await pg.connect();
  return {
    cluster,
    smtp,
    dns,
    apis: cluster.apis.map((api) => ({ http: () => request(api.url), dns })),
    temporal: new Client({ connection, namespace: cluster.namespace }),
    sql: async <T>(query: string, params: unknown[] = []) => (await pg.query(query, params)).rows as T[],
    close: async () => {
      await pg.end();
      await connection.close();
      await cluster.stop();
      await Promise.all([smtp.close(), dns.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The same tenant, its requests going to another API process. */
export const through = <T extends Tenant>(api: ApiTarget, t: T): T => ({ ...t, c: client(api, t.project) });
