/**
 * `npm run bench -- cluster`: what the production shape (docs/cluster.md) costs to have: seconds from nothing to
 * a cluster ready on an empty data folder and again on the same data, every process's memory and CPU at idle,
 * the seconds a restart of the Temporal server takes, and the seconds to stop it all. Runs beside anything
 * else (a temporary data folder, the first free block of ports past CLUSTER_PORT's) and removes its folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { blockSize, freeBase } from '../scripts/lib/cluster/layout';
import { startCluster, type Cluster } from '../scripts/lib/cluster/cluster';
import { ports } from '../scripts/lib/ports';
import { serverCpuMs, treeCpuMs } from './lib/cpu';
import { descendants, pssMb } from './lib/memory';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const APIS = 2;

/** Every process of the cluster by name, with how to read its memory and CPU. */
function processes(cluster: Cluster): Array<{ name: string; pid: number; server: boolean }> {
  return [
    { name: 'PostgreSQL (every backend)', pid: cluster.postgresPid()!, server: true },
    { name: `Temporal server ${cluster.temporalVersion}`, pid: cluster.temporalPid()!, server: false },
    ...cluster.apis.map((api, i) => ({ name: `API ${i + 1}`, pid: api.service.pid, server: false })),
    ...cluster.workers.map((worker, i) => ({ name: `worker ${i + 1}`, pid: worker.pid, server: false })),
  ];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  return [await run(), Date.now() - started];
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'postwire-bench-cluster-'));
  const base = await freeBase(ports.cluster + blockSize(APIS), APIS);
  console.log(
    `cluster bench: data in ${dir}, ports from ${base}; ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  try {
    const [first, fresh] = await timed(() => startCluster({ dir, base, apis: APIS }));
    const [, stopFirst] = await timed(() => first.stop());
    const [cluster, again] = await timed(() => startCluster({ dir, base, apis: APIS }));
    console.log(`start on an empty data folder   ${seconds(fresh)}  (PostgreSQL initialised, Temporal's schema, namespace, migrations)`);
    console.log(`start again on the same data    ${seconds(again)}`);
    console.log(`stop                            ${seconds(stopFirst)}`);

    // Settled first: the start's own work (shard acquisition, JIT) is not idling.
    await new Promise((r) => setTimeout(r, 10_000));
    const listed = processes(cluster);
    const cpu = (p: { pid: number; server: boolean }) => (p.server ? serverCpuMs(p.pid) : treeCpuMs(p.pid));
    const before = listed.map(cpu);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const after = listed.map(cpu);
    console.log(`\nat idle, over ${IDLE_SECONDS} s               memory (PSS)   CPU`);
    let total = 0;
    listed.forEach((p, i) => {
      const mb = (p.server ? descendants(p.pid) : [p.pid]).reduce((sum, pid) => sum + pssMb(pid), 0);
      total += mb;
      const cpuPct = ((after[i]! - before[i]!) / (IDLE_SECONDS * 1000)) * 100;
      console.log(`  ${p.name.padEnd(32)} ${mb.toFixed(0).padStart(6)} MB   ${cpuPct.toFixed(1).padStart(5)} %`);
    });
    console.log(`  ${'all'.padEnd(32)} ${total.toFixed(0).padStart(6)} MB`);

    const [, restart] = await timed(() => cluster.restartTemporal());
    console.log(`\nTemporal server restart         ${seconds(restart)}  (SIGTERM, start on the same data, namespace served)`);
    const [, stop] = await timed(() => cluster.stop());
    console.log(`stop                            ${seconds(stop)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
