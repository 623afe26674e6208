import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initOrm } from '../../src/app/orm';
import { loadConfig } from '../../src/config';
import { blockSize, freeBase } from '../../scripts/lib/cluster/layout';
import { startCluster, type Cluster } from '../../scripts/lib/cluster/cluster';
import { ports } from '../../scripts/lib/ports';
import type { AutomationStack } from './automation-stack';
import { apiClient } from './node-process';
import { ProcessUsage } from './process-usage';
import { senderProject, type SendingBench } from './sending';

const APIS = 2;
const WORKERS = 2;

/**
 * The production shape (docs/cluster.md) for the automation benches: `startCluster` with two APIs and two
 * workers in a temporary folder, its mail to `smtpUrl`, no rate limits; `bench` stands where `sendingBench`
 * stands for `npm start`'s stack (its database is the cluster's). Its PostgreSQL also holds Temporal's
 * databases, so part of its CPU is the Temporal server's persistence.
 */
export async function clusterBench(smtpUrl: string): Promise<{ cluster: Cluster; bench: SendingBench }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'postwire-bench-cluster-'));
  const base = await freeBase(ports.cluster + blockSize(APIS), APIS);
  const cluster = await startCluster({
    dir,
    base,
    apis: APIS,
    workers: WORKERS,
    env: { SMTP_URL: smtpUrl, EMAIL_RATE_PER_SECOND: '0', API_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
  });
  const env = Object.fromEntries(Object.entries(cluster.env).filter((e): e is [string, string] => e[1] !== undefined));
  const config = loadConfig(env);
  const orm = await initOrm(config.DATABASE_URL, 4);
  const owner = await senderProject(orm, config, 'postwire_bench_cluster');
  return {
    cluster,
    bench: {
      env,
      config,
      orm,
      ...owner,
      close: async () => {
        await orm.close();
        await cluster.stop();
        await rm(dir, { recursive: true, force: true });
      },
    },
  };
}

/** The cluster's APIs (taken in turn) and workers as an automation bench's stack, for a project of its own. */
export async function clusterAutomationStack(cluster: Cluster, bench: SendingBench, name: string): Promise<AutomationStack> {
  const project = await senderProject(bench.orm, bench.config, `${name} ${new Date().toISOString()}`);
  const clients = cluster.apis.map((api) => apiClient(api.url, project.secret));
  let turn = 0;
  const workerPids = () => cluster.workers.filter((w) => w.running).map((w) => w.pid);
  const usage = new ProcessUsage([
    { name: 'workers', pids: workerPids },
    { name: 'Temporal', pids: () => [cluster.temporalPid()].filter((p): p is number => p !== null) },
    { name: 'PostgreSQL', pids: () => [cluster.postgresPid()].filter((p): p is number => p !== null), reaped: true },
    { name: 'APIs', pids: () => cluster.apis.map((api) => api.service.pid) },
  ]);
  return {
    taskQueue: cluster.taskQueue,
    project,
    api: (method, route, body) => clients[turn++ % clients.length]!(method, route, body),
    apiUrl: cluster.apis[0]!.url,
    workerPids,
    usage,
    // Nothing to terminate: the cluster, with whatever still runs on it, goes with the bench (clusterBench's close).
    close: async () => {
      usage.stop();
    },
  };
}
