/**
 * POST /workflows/{id}/simulate (docs/simulation.md): a 6-step automation, WAIT_FOR_EVENT with a 3-day timeout
 * (the event arrives at day 2), CONDITION, UPDATE_CONTACT, a 30-day DELAY, WEBHOOK, EXIT, simulated
 * BENCH_AT_ONCE at a time (default 20) for BENCH_ROUNDS rounds (default 10). Prints the CPU per simulation of
 * the API process and its test servers, simulations/s, and the latency of each request, p50 and p99
 * (targets < 1 s and < 2 s). The API runs in its own process on BENCH_PORT (default 3140) over
 * `postwire_bench_simulate`, with SIMULATION_SERVERS from BENCH_SERVERS (default: the API's default).
 */
import { execFileSync } from 'node:child_process';
import { temporalTestServer } from '../scripts/lib/paths';
import { ensureWorkflowBundle } from '../scripts/lib/workflow-bundle';
import { startApiProcess } from './lib/api-process';
import { cpuMsOf, treeCpuMs } from './lib/cpu';
import { openBenchDatabase } from './lib/database';
import { createTenant } from './lib/tenant';

const AT_ONCE = Number(process.env.BENCH_AT_ONCE ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

async function call(url: string, secret: string, method: string, path: string, body?: object): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The workflow under test, built through the API; returns its id. */
async function sixSteps(url: string, secret: string): Promise<string> {
  const workflow = await call(url, secret, 'POST', '/workflows', { name: 'Bench onboarding', eventName: 'signup' });
  const id = String(workflow.id);
  const steps: Array<[string, object]> = [
    ['WAIT_FOR_EVENT', { eventName: 'paid', timeout: 3 * 86_400 }],
    ['CONDITION', { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] }],
    ['UPDATE_CONTACT', { data: { stage: 'customer' } }],
    ['DELAY', { amount: 30, unit: 'days' }],
    ['WEBHOOK', { url: 'https://hooks.example.com/bench' }],
    ['EXIT', { reason: 'done' }],
  ];
  const ids: string[] = [];
  for (const [type, config] of steps) ids.push(String((await call(url, secret, 'POST', `/workflows/${id}/steps`, { type, config })).id));
  for (let i = 1; i < ids.length; i++) {
    await call(url, secret, 'POST', `/workflows/${id}/transitions`, {
      fromStepId: ids[i - 1],
      toStepId: ids[i],
      ...(i === 2 ? { branch: 'yes' } : {}),
    });
  }
  return id;
}

const SCENARIO = {
  contact: { email: 'ada@example.com', data: { plan: 'pro' } },
  trigger: { event: 'signup', data: { name: 'Ada' } },
  events: [{ after: '2 days', event: 'paid', data: { amount: 30 } }],
};

interface TreeProcess {
  pid: number;
  mb: number;
  server: boolean;
}

/** The API process and its descendants, with their resident memory; `server` marks its test servers. */
function apiTree(rootPid: number): TreeProcess[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, rss, comm] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), mb: Number(rss) / 1024, server: (comm ?? '').startsWith('temporal-test') };
    });
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) if (!tree.has(row.pid) && tree.has(row.ppid)) grew = tree.add(row.pid).size > 0;
  }
  return rows.filter((row) => tree.has(row.pid));
}

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
