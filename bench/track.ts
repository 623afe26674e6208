/**
 * POST /v1/track: throughput at full speed for BENCH_SECONDS (default 30) and latency at a fixed
 * BENCH_RATE req/s (default 750). Half the requests track a new contact, half an existing one, all with
 * data. Targets: >= 1,500 req/s, p99 < 50 ms at 750 req/s.
 *
 * Against BENCH_URL when set (its API_RATE_LIMIT_PER_MINUTE must allow the load, e.g. 0); otherwise it
 * starts the API on BENCH_PORT (default 3100) over the `postwire_bench` database with the per-minute limit
 * off, as a deployment expecting this traffic would.
 */
import { startApiProcess, type ApiProcess } from './lib/api-process';
import { cpuMsOf, treeCpuMs } from './lib/cpu';
import { openBenchDatabase, type BenchDatabase } from './lib/database';
import { runBench, type BenchFigures, type BenchSpec } from './lib/run';
import { createTenant } from './lib/tenant';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const RATE = Number(process.env.BENCH_RATE ?? 750);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const EXISTING = 5_000;

async function publicKeyOf(url: string, cookie: string, projectId: string): Promise<string> {
  const res = await fetch(`${url}/users/@me/projects`, { headers: { cookie } });
  const projects = (await res.json()) as Array<{ id: string; public: string }>;
  const key = projects.find((p) => p.id === projectId)?.public;
  if (!key) throw new Error('the new project is not listed');
  return key;
}

/** The contacts that the "existing" half of the load tracks again. */
async function seedExisting(url: string, publicKey: string, run: string): Promise<void> {
  for (let i = 0; i < EXISTING; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        fetch(`${url}/v1/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${publicKey}` },
          body: JSON.stringify({ email: `known${i + j}-${run}@bench.test`, event: 'seeded' }),
        }).then((r) => {
          if (!r.ok) throw new Error(`seeding answered ${r.status}`);
        }),
      ),
    );
  }
}

/** The API's connections are told apart from other users of the database by their application name. */
const APPLICATION = 'postwire-bench-api';

const backendPids = async (db: BenchDatabase) =>
  (await db.orm.em.fork().execute<{ pid: number }[]>('select pid from pg_stat_activity where application_name = ?', [APPLICATION])).map(
    (r) => r.pid,
  );

/**
 * Runs a load and, for an API this benchmark started, prints the CPU it and its database connections spent
 * per request: unlike requests per second, that does not depend on what else the machine is running.
 */
async function measured(spec: BenchSpec, api: ApiProcess | null, db: BenchDatabase | null): Promise<BenchFigures> {
  if (!api || !db) return runBench(spec);
  const apiBefore = treeCpuMs(api.pid);
  const dbBefore = cpuMsOf(await backendPids(db));
  const figures = await runBench(spec);
  const apiMs = treeCpuMs(api.pid) - apiBefore;
  const dbAfter = cpuMsOf(await backendPids(db));
  const dbMs = [...dbAfter].reduce((sum, [pid, ms]) => sum + ms - (dbBefore.get(pid) ?? 0), 0);
  const per = (ms: number) => (ms / figures.requests).toFixed(3);
  console.log(
    `  CPU per request: API ${per(apiMs)} ms (one core serves ~${Math.round(figures.requests / (apiMs / 1000))} req/s), PostgreSQL ${per(dbMs)} ms`,
  );
  return figures;
}

async function main(): Promise<void> {
  const db = process.env.BENCH_URL ? null : await openBenchDatabase();
  const api = db
    ? await startApiProcess(Number(process.env.BENCH_PORT ?? 3100), db.url, { API_RATE_LIMIT_PER_MINUTE: '0', PGAPPNAME: APPLICATION })
    : null;
  const url = process.env.BENCH_URL ?? api!.url;
  try {
    const tenant = await createTenant(url);
    const publicKey = await publicKeyOf(url, tenant.cookie, tenant.projectId);
    const run = Date.now().toString(36);
    await seedExisting(url, publicKey, run);

    let n = 0;
    const body = () => {
      n += 1;
      const existing = n % 2 === 0;
      return {
        email: existing ? `known${n % EXISTING}-${run}@bench.test` : `new${n}-${run}@bench.test`,
        event: existing ? 'page-view' : 'signed-up',
        data: {
          plan: n % 3 ? 'free' : 'pro',
          visits: n,
          lastSeen: new Date().toISOString(),
          coupon: { value: `C${n}`, persistent: false },
        },
      };
    };
    const common = {
      url: `${url}/v1/track`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${publicKey}` },
      body,
      durationSeconds: SECONDS,
    };
    const full = await measured({ ...common, name: 'POST /v1/track, full speed', connections: CONNECTIONS }, api, db);
    const paced = await measured({ ...common, name: `POST /v1/track, ${RATE} req/s`, connections: CONNECTIONS, rate: RATE }, api, db);
    console.log(
      `targets: >= 1500 req/s: ${full.requestsPerSecond >= 1500 ? 'met' : 'MISSED'}; p99 < 50 ms at ${RATE} req/s: ${paced.latencyP99Ms < 50 ? 'met' : 'MISSED'}`,
    );
  } finally {
    await api?.stop();
    await db?.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
