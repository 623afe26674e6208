/**
 * POST /v1/send with one recipient and an inline body: throughput at full speed for BENCH_SECONDS (default
 * 30) and latency at a fixed BENCH_RATE req/s (default 200). Each request has a new recipient and a
 * request-only template variable. Targets: >= 400 accepted req/s, p99 < 100 ms at 200 req/s.
 *
 * It starts the API (src/main/api.ts, its own process) on BENCH_PORT (default 3102) over a database of its
 * own, `postwire_bench_send` (or BENCH_DATABASE), with the per-minute limit off, for a new project whose sender domain is entered
 * as verified. It prints the CPU the API and its PostgreSQL connections spent per request. No pump runs: the request only records the emails (bench/delivery measures sending).
 * BENCH_BASELINE=<git revision> runs the same passes against that revision's API first (before and after in one run).
 */
import path from 'node:path';
import { startApiProcess } from './lib/api-process';
import { BackendCpu } from './lib/backend-cpu';
import { treeCpuMs } from './lib/cpu';
import { thisCheckout, treeAt, type CodeTree } from './lib/code-tree';
import { runBench, type BenchFigures, type BenchSpec } from './lib/run';
import { loadNote, sendingBench, signInCodes, type SendingBench } from './lib/sending';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** The API's database connections are told apart from the benchmark's own by this application name. */
const APPLICATION = 'postwire-bench-send-api';

async function main(): Promise<void> {
  const bench = await sendingBench(process.env.BENCH_DATABASE ?? 'postwire_bench_send');
  const baseline = process.env.BENCH_BASELINE;
  const trees: CodeTree[] = [...(baseline ? [await treeAt(baseline)] : []), thisCheckout()];
  try {
    for (const tree of trees) {
      console.log(`== ${tree.label}`);
      await passes(bench, tree);
    }
  } finally {
    await Promise.all(trees.map((tree) => tree.remove()));
    await bench.close();
  }
}

/** Full speed, then paced, against the API of `tree`. */
async function passes(bench: SendingBench, tree: CodeTree): Promise<void> {
  const api = await startApiProcess(
    Number(process.env.BENCH_PORT ?? 3102),
    bench.config.DATABASE_URL,
    { ...bench.env, API_RATE_LIMIT_PER_MINUTE: '0', PGAPPNAME: APPLICATION },
    path.join(tree.dir, 'src', 'main', 'api.ts'),
  );
  const database = new BackendCpu(bench.orm.em, APPLICATION);
  // CPU per request hardly depends on what else the machine runs, unlike requests per second.
  const measured = async (spec: BenchSpec): Promise<BenchFigures> => {
    const apiBefore = treeCpuMs(api.pid);
    await database.start();
    const since = new Date();
    const figures = await runBench(spec);
    const apiMs = treeCpuMs(api.pid) - apiBefore;
    const dbMs = await database.elapsedMs();
    const per = (ms: number) => (ms / figures.requests).toFixed(2);
    console.log(`  CPU per request: API ${per(apiMs)} ms, PostgreSQL ${per(dbMs)} ms; ${loadNote()}`);
    // A transaction's emails share its now(): how many requests each transaction recorded (group commit).
    const [group] = await bench.orm.em.execute<Array<{ emails: number; transactions: number }>>(
      `select count(*)::int as emails, count(distinct created_at)::int as transactions from emails where project_id = ? and created_at >= ?`,
      [bench.projectId, since],
    );
    console.log(`  emails per transaction: ${(group!.emails / Math.max(1, group!.transactions)).toFixed(1)}`);
    return figures;
  };
  try {
    const body = signInCodes(bench.from);
    const common: Omit<BenchSpec, 'name'> = {
      url: `${api.url}/v1/send`,
      method: 'POST',
      headers: { authorization: `Bearer ${bench.secret}` },
      body,
      durationSeconds: SECONDS,
      connections: CONNECTIONS,
    };
    const full = await measured({ ...common, name: 'POST /v1/send, full speed' });
    const paced = await measured({ ...common, name: `POST /v1/send, ${RATE} req/s`, rate: RATE });
    const accepted = (full.statuses['200'] ?? 0) / SECONDS;
    console.log(
      `targets: >= 400 accepted req/s: ${accepted.toFixed(0)} ${accepted >= 400 ? 'met' : 'MISSED'}; ` +
        `p99 < 100 ms at ${RATE} req/s: ${paced.latencyP99Ms} ms ${paced.latencyP99Ms < 100 ? 'met' : 'MISSED'}`,
    );
  } finally {
    await api.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
