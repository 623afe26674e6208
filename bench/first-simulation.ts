/**
 * The first simulation after the API's start (docs/simulation.md "Concurrency"), without a warm server
 * (SIMULATION_WARM=false: it starts on first use, the behaviour before) and with one (true), in one run:
 * BENCH_STARTS starts of each (default 2), alternating. Each start: seconds until GET /config answers, then a
 * tenant and bench/simulate.ts's 6-step workflow made through the API, then the first simulation either at once
 * or after BENCH_IDLE_SECONDS (default 20, a person opening the page), and five more one at a time (the
 * calibration: what every later simulation takes on the same machine at the same moment). Prints each latency,
 * the CPU of the API's process tree from its answer to the first simulation (what the warm-up costs) and during
 * the first simulation. The API runs in its own process on BENCH_PORT (default 3141) over `postwire_bench_simulate`.
 */
import { temporalTestServer } from '../scripts/lib/paths';
import { ensureWorkflowBundle } from '../scripts/lib/workflow-bundle';
import { startApiProcess } from './lib/api-process';
import { treeCpuMs } from './lib/cpu';
import { openBenchDatabase } from './lib/database';
import { SCENARIO, call, sixSteps } from './lib/simulation';
import { createTenant } from './lib/tenant';
import { median } from './lib/node-process';

const STARTS = Number(process.env.BENCH_STARTS ?? 2);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const LATER = 5;
const PORT = Number(process.env.BENCH_PORT ?? 3141);

interface Figures {
  readyS: number;
  firstMs: number;
  laterMs: number;
  cpuBeforeFirstMs: number;
  cpuFirstMs: number;
}

async function oneStart(databaseUrl: string, bundle: string, warm: boolean, idleSeconds: number): Promise<Figures> {
  const started = performance.now();
  const api = await startApiProcess(PORT, databaseUrl, {
    API_RATE_LIMIT_PER_MINUTE: '0',
    TEMPORAL_TEST_SERVER_PATH: temporalTestServer,
    WORKER_WORKFLOW_BUNDLE: bundle,
    SIMULATION_WARM: String(warm),
  });
  try {
    const readyS = (performance.now() - started) / 1000;
    const cpuAtReady = treeCpuMs(api.pid);
    const tenant = await createTenant(api.url);
    const workflowId = await sixSteps(api.url, tenant.secret);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const simulate = async () => {
      const at = performance.now();
      const answer = await call(api.url, tenant.secret, 'POST', `/workflows/${workflowId}/simulate`, SCENARIO);
      if (answer.status !== 'EXITED' || answer.endedAfter !== 'P32D') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
      return performance.now() - at;
    };
    const cpuBeforeFirst = treeCpuMs(api.pid);
    const firstMs = await simulate();
    const cpuFirstMs = treeCpuMs(api.pid) - cpuBeforeFirst;
    const later: number[] = [];
    for (let i = 0; i < LATER; i++) later.push(await simulate());
    return { readyS, firstMs, laterMs: median(later), cpuBeforeFirstMs: cpuBeforeFirst - cpuAtReady, cpuFirstMs };
  } finally {
    await api.stop();
  }
}

async function main(): Promise<void> {
  const db = await openBenchDatabase('postwire_bench_simulate');
  const bundle = await ensureWorkflowBundle(console.log);
  const rows: Array<{ warm: boolean; idle: number; figures: Figures }> = [];
  try {
    for (let round = 0; round < STARTS; round++) {
      for (const idle of [0, IDLE_SECONDS]) {
        for (const warm of [false, true]) {
          const figures = await oneStart(db.url, bundle, warm, idle);
          rows.push({ warm, idle, figures });
          console.log(
            `  SIMULATION_WARM=${warm}, first simulation ${idle} s after the tenant and workflow: ready in ${figures.readyS.toFixed(1)} s; ` +
              `first ${figures.firstMs.toFixed(0)} ms, later ones ${figures.laterMs.toFixed(0)} ms (median of ${LATER}); ` +
              `API tree CPU ${figures.cpuBeforeFirstMs.toFixed(0)} ms from ready to the first simulation, ${figures.cpuFirstMs.toFixed(0)} ms during it`,
          );
        }
      }
    }
  } finally {
    await db.close();
  }
  console.log(`first-simulation: medians over ${STARTS} starts each`);
  for (const idle of [0, IDLE_SECONDS]) {
    for (const warm of [false, true]) {
      const of = rows.filter((r) => r.warm === warm && r.idle === idle).map((r) => r.figures);
      const m = (pick: (f: Figures) => number) => median(of.map(pick)).toFixed(0);
      console.log(
        `  ${warm ? 'warm (after) ' : 'cold (before)'} first simulation ${String(idle).padStart(2)} s after setup: ` +
          `first ${m((f) => f.firstMs)} ms, later ${m((f) => f.laterMs)} ms, ready in ${median(of.map((f) => f.readyS)).toFixed(1)} s, ` +
          `CPU ready-to-first ${m((f) => f.cpuBeforeFirstMs)} ms, CPU of the first ${m((f) => f.cpuFirstMs)} ms`,
      );
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
