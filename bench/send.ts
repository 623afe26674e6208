/**
 * POST /v1/send with one recipient and an inline body: throughput at full speed for BENCH_SECONDS (default
 * 30) and latency at a fixed BENCH_RATE req/s (default 200). Each request has a new recipient and a
 * request-only template variable. Targets: >= 400 accepted req/s, p99 < 100 ms at 200 req/s.
 *
 * It starts the API (src/main/api.ts, its own process) on BENCH_PORT (default 3102) over a database of its
 * own, `postwire_bench_send`, with the per-minute limit off, for a new project whose sender domain is entered
 * as verified. No pump runs: the request only records the emails (bench/delivery measures sending).
 */
import { startApiProcess } from './lib/api-process';
import { treeCpuMs } from './lib/cpu';
import { runBench, type BenchSpec } from './lib/run';
import { loadNote, sendingBench } from './lib/sending';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function main(): Promise<void> {
  const bench = await sendingBench('postwire_bench_send');
  const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3102), bench.config.DATABASE_URL, {
    ...bench.env,
    API_RATE_LIMIT_PER_MINUTE: '0',
  });
  try {
    const run = Date.now().toString(36);
    let n = 0;
    const body = () => {
      n += 1;
      return {
        to: { name: `Reader ${n}`, email: `reader-${n}-${run}@bench.test` },
        from: { name: 'Bench', email: bench.from },
        subject: 'Your sign-in code',
        body: '<p>Hello {{ name ?? "there" }},</p><p>your code is <b>{{ code }}</b>.</p>',
        data: { code: { value: String(100000 + n), persistent: false } },
      };
    };
    const common: Omit<BenchSpec, 'name'> = {
      url: `${api.url}/v1/send`,
      method: 'POST',
      headers: { authorization: `Bearer ${bench.secret}` },
      body,
      durationSeconds: SECONDS,
      connections: CONNECTIONS,
    };
    const cpuBefore = treeCpuMs(api.pid);
    const full = await runBench({ ...common, name: 'POST /v1/send, full speed' });
    // CPU per request hardly depends on what else the machine runs, unlike requests per second.
    console.log(`  API CPU ${((treeCpuMs(api.pid) - cpuBefore) / full.requests).toFixed(2)} ms per request; ${loadNote()}`);
    const paced = await runBench({ ...common, name: `POST /v1/send, ${RATE} req/s`, rate: RATE });
    console.log(`  ${loadNote()}`);
    const accepted = (full.statuses['200'] ?? 0) / SECONDS;
    console.log(
      `targets: >= 400 accepted req/s: ${accepted.toFixed(0)} ${accepted >= 400 ? 'met' : 'MISSED'}; ` +
        `p99 < 100 ms at ${RATE} req/s: ${paced.latencyP99Ms} ms ${paced.latencyP99Ms < 100 ? 'met' : 'MISSED'}`,
    );
  } finally {
    await api.stop();
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
