/**
 * POST /workflows/{id}/simulate (docs/simulation.md): a 6-step automation, WAIT_FOR_EVENT with a 3-day timeout
 * (the event arrives at day 2), CONDITION, UPDATE_CONTACT, a 30-day DELAY, WEBHOOK, EXIT, simulated
 * BENCH_AT_ONCE at a time (default 20) for BENCH_ROUNDS rounds (default 10). Prints the CPU per simulation of
 * the API process and its test servers, simulations/s, and the latency of each request, p50 and p99
 * (targets < 1 s and < 2 s). The API runs in its own process on BENCH_PORT (default 3140) over
 * `postwire_bench_simulate`, with SIMULATION_SERVERS from BENCH_SERVERS (default: the API's default).
 */
import { temporalTestServer } from '../scripts/lib/paths';
import { ensureWorkflowBundle } from '../scripts/lib/workflow-bundle';
import { startApiProcess } from './lib/api-process';
import { cpuMsOf, treeCpuMs } from './lib/cpu';
import { openBenchDatabase } from './lib/database';
import { createTenant } from './lib/tenant';
import { SCENARIO, apiTree, call, sixSteps, type TreeProcess } from './lib/simulation';

const AT_ONCE = Number(process.env.BENCH_AT_ONCE ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

/** Resident memory of the API's process tree, and of its test servers alone. */
function memory(rootPid: number): string {
  const tree = apiTree(rootPid);
  const sum = (list: TreeProcess[]) => list.reduce((total, row) => total + row.mb, 0).toFixed(0);
  const servers = tree.filter((row) => row.server);
  return `${sum(tree)} MB (${servers.length} test servers: ${sum(servers)} MB)`;
}

const serversCpuMs = (rootPid: number) =>
  [
    ...cpuMsOf(
      apiTree(rootPid)
        .filter((row) => row.server)
        .map((row) => row.pid),
    ).values(),
  ].reduce((a, b) => a + b, 0);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const db = await openBenchDatabase('postwire_bench_simulate');
  const bundle = await ensureWorkflowBundle(console.log);
  const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3140), db.url, {
    API_RATE_LIMIT_PER_MINUTE: '0',
    SIMULATION_QUEUE: String(AT_ONCE * 2),
    TEMPORAL_TEST_SERVER_PATH: temporalTestServer,
    WORKER_WORKFLOW_BUNDLE: bundle,
    ...(process.env.BENCH_SERVERS ? { SIMULATION_SERVERS: process.env.BENCH_SERVERS } : {}),
  });
  try {
    const idleMb = memory(api.pid);
    const tenant = await createTenant(api.url);
    const workflowId = await sixSteps(api.url, tenant.secret);
    const simulate = async () => {
      const started = performance.now();
      const answer = await call(api.url, tenant.secret, 'POST', `/workflows/${workflowId}/simulate`, SCENARIO);
      if (answer.status !== 'EXITED' || answer.endedAfter !== 'P32D') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
      return { ms: performance.now() - started, wallMs: Number(answer.wallMs) };
    };
    // Warm-up: starts the test servers and their workers, which a running API keeps.
    await Promise.all(Array.from({ length: AT_ONCE }, simulate));
    const cpuBefore = treeCpuMs(api.pid);
    const serverCpuBefore = serversCpuMs(api.pid);
    const started = performance.now();
    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(Array.from({ length: AT_ONCE }, simulate));
      latencies.push(...results.map((r) => r.ms));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = treeCpuMs(api.pid) - cpuBefore;
    const serverCpuMs = serversCpuMs(api.pid) - serverCpuBefore;
    const count = AT_ONCE * ROUNDS;
    latencies.sort((a, b) => a - b);
    console.log(`simulate: ${count} simulations, ${AT_ONCE} at a time, servers ${process.env.BENCH_SERVERS ?? 'default'}`);
    console.log(
      `  CPU per simulation: ${(cpuMs / count).toFixed(1)} ms (API process and its test servers), of which the test servers ${(serverCpuMs / count).toFixed(1)} ms`,
    );
    console.log(`  ${(count / seconds).toFixed(1)} simulations/s`);
    console.log(`  memory of the API process tree: ${idleMb} before any simulation`);
    console.log(`  memory of the API process tree after the run: ${memory(api.pid)}`);
    console.log(`  request latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`);
  } finally {
    await api.stop();
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
