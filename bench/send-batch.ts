/**
 * POST /v1/send/batch of BENCH_BATCH items (default 100) beside single POST /v1/send, in the same run and
 * against the same API process, alternately for BENCH_ROUNDS rounds (default 2) of BENCH_SECONDS each
 * (default 20): emails accepted per second, and the CPU the API process and its PostgreSQL connections spent
 * per email. Each email has a new recipient, an inline body and a request-only variable, as in bench/send.
 * Single sends use BENCH_CONNECTIONS connections (default 32), batches BENCH_BATCH_CONNECTIONS (default 4).
 *
 * It starts the API (src/main/api.ts, its own process) on BENCH_PORT (default 3104) over a database of its
 * own, `postwire_bench_send_batch`, with the per-minute limit off, for a new project whose sender domain is
 * entered as verified. No pump runs: requests only record the emails (bench/delivery measures sending).
 */
import { startApiProcess } from './lib/api-process';
import { BackendCpu } from './lib/backend-cpu';
import { treeCpuMs } from './lib/cpu';
import { runBench, type BenchSpec } from './lib/run';
import { loadNote, sendingBench, signInCodes } from './lib/sending';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BATCH_CONNECTIONS = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 4);
const APPLICATION = 'postwire-bench-send-batch-api';

async function main(): Promise<void> {
  const bench = await sendingBench('postwire_bench_send_batch');
  const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3104), bench.config.DATABASE_URL, {
    ...bench.env,
    API_RATE_LIMIT_PER_MINUTE: '0',
    PGAPPNAME: APPLICATION,
  });
  const database = new BackendCpu(bench.orm.em, APPLICATION);
  const email = signInCodes(bench.from);
  const headers = { authorization: `Bearer ${bench.secret}` };
  /** Runs `spec`; prints emails accepted per second and CPU per email, each request carrying `perRequest` emails. */
  const measured = async (spec: BenchSpec, perRequest: number) => {
    const apiBefore = treeCpuMs(api.pid);
    await database.start();
    const figures = await runBench(spec);
    const apiMs = treeCpuMs(api.pid) - apiBefore;
    const dbMs = await database.elapsedMs();
    const emails = (figures.statuses['200'] ?? 0) * perRequest;
    const per = (ms: number) => (emails ? (ms / emails).toFixed(3) : '—');
    console.log(
      `  ${(emails / (spec.durationSeconds ?? SECONDS)).toFixed(0)} emails accepted/s; CPU per email: API ${per(apiMs)} ms, ` +
        `PostgreSQL ${per(dbMs)} ms; ${loadNote()}`,
    );
    return { emails, apiMs, dbMs };
  };
  const totals = { single: { emails: 0, apiMs: 0, dbMs: 0 }, batch: { emails: 0, apiMs: 0, dbMs: 0 } };
  const add = (into: typeof totals.single, r: typeof totals.single) => {
    into.emails += r.emails;
    into.apiMs += r.apiMs;
    into.dbMs += r.dbMs;
  };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const single = await measured(
        {
          name: `round ${round}: POST /v1/send, one email a request`,
          url: `${api.url}/v1/send`,
          method: 'POST',
          headers,
          body: email,
          durationSeconds: SECONDS,
          connections: CONNECTIONS,
        },
        1,
      );
      add(totals.single, single);
      const batch = await measured(
        {
          name: `round ${round}: POST /v1/send/batch, ${BATCH} emails a request`,
          url: `${api.url}/v1/send/batch`,
          method: 'POST',
          headers,
          body: () => Array.from({ length: BATCH }, email),
          durationSeconds: SECONDS,
          connections: BATCH_CONNECTIONS,
        },
        BATCH,
      );
      add(totals.batch, batch);
    }
    const line = (name: string, t: typeof totals.single) =>
      `${name}: ${(t.emails / (ROUNDS * SECONDS)).toFixed(0)} emails/s, API ${(t.apiMs / t.emails).toFixed(3)} ms and PostgreSQL ${(t.dbMs / t.emails).toFixed(3)} ms of CPU per email`;
    console.log(`all rounds\n  ${line('single', totals.single)}\n  ${line(`batch of ${BATCH}`, totals.batch)}`);
  } finally {
    await api.stop();
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
