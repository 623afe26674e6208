/**
 * Scale: BENCH_CONTACTS executions (default 100,000) of the automation of `npm run bench -- automation`
 * (SEND_EMAIL, WAIT_FOR_EVENT with a 1-day timeout, CONDITION, SEND_EMAIL; BENCH_WAIT_FIRST=1 leaves out the first
 * SEND_EMAIL, so that parking is a start and one workflow task) parked at once in WAIT_FOR_EVENT, then all resumed. The trigger events, then the awaited ones, are recorded straight into the events outbox in
 * chunks of BENCH_CHUNK (default 5,000), as a burst of /v1/track would leave them, so the figures are the
 * stack's own: the time to park them all and to complete them all, the memory (Pss) of every process while
 * they wait and at its peak, the size of the Temporal dev server's database, and the CPU per execution of every
 * process. A progress line every BENCH_REPORT_SECONDS (default 60). A stack that stops moving for
 * BENCH_STALL_SECONDS (default 600) ends the run, saying where it stood: that is its limit.
 *
 * The worker and the API of this checkout, in processes of their own (bench/lib/automation-stack.ts), on the
 * PostgreSQL and Temporal server of `npm start` (or DATABASE_URL's and TEMPORAL_ADDRESS's); own database
 * `postwire_bench_scale`. BENCH_SHAPE=cluster: the production shape of `npm run cluster` instead, two APIs and
 * two workers (bench/lib/cluster-stack.ts), in a temporary folder.
 */
import { readFileSync, statSync } from 'node:fs';
import { closeDeps, createDeps } from '../src/bootstrap';
import { OUTBOX_CHANNEL } from '../src/modules/outbox/channel';
import { fourStepAutomation, startAutomationStack } from './lib/automation-stack';
import { clusterAutomationStack, clusterBench } from './lib/cluster-stack';
import { thisCheckout } from './lib/code-tree';
import { cpuBetween, listenerOf } from './lib/process-usage';
import { loadNote, sendingBench, startSmtpSink } from './lib/sending';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 5_000);
const REPORT_MS = Number(process.env.BENCH_REPORT_SECONDS ?? 60) * 1000;
const STALL_MS = Number(process.env.BENCH_STALL_SECONDS ?? 600) * 1000;
/** BENCH_WAIT_FIRST=1: the automation without its first SEND_EMAIL, parked in its first workflow task. */
const WAIT_FIRST = process.env.BENCH_WAIT_FIRST === '1';
/** BENCH_RESUME=0: the run ends once all are parked (parking alone, e.g. to compare two configurations). */
const RESUME = process.env.BENCH_RESUME !== '0';

/** The Temporal dev server's SQLite file (its `--db-filename`) and its write-ahead log, MB; null for another server. */
function temporalDatabaseMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const file = args[args.indexOf('--db-filename') + 1];
  if (!args.includes('--db-filename') || !file) return null;
  const size = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  return (size(file) + size(`${file}-wal`)) / 1024 / 1024;
}

/** CPU per execution of each process, from CPU totals in ms. */
const per = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([name, v]) => `${name} ${(v / CONTACTS).toFixed(1)} ms`)
    .join(' + ');

const mb = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([name, v]) => `${name} ${v.toFixed(0)}`)
    .join(', ');

/** `cluster`: the production shape of `npm run cluster` (docs/cluster.md) instead of npm start's stack. */
const SHAPE = process.env.BENCH_SHAPE ?? 'dev';

async function main(): Promise<void> {
  const sink = await startSmtpSink();
  const cluster = SHAPE === 'cluster' ? await clusterBench(sink.url) : null;
  const bench = cluster?.bench ?? (await sendingBench('postwire_bench_scale', { SMTP_URL: sink.url, EMAIL_RATE_PER_SECOND: '0' }));
  const deps = await createDeps('bench', bench.config);
  const db = () => bench.orm.em.fork();
  await db().execute(`delete from projects where name like 'postwire_bench_scale %'`);
  const stack = cluster
    ? await clusterAutomationStack(cluster.cluster, bench, 'postwire_bench_scale')
    : await startAutomationStack(thisCheckout(), bench, deps, 'postwire_bench_scale');
  const temporalPid = cluster ? undefined : listenerOf(bench.config.TEMPORAL_ADDRESS)()[0];
  /** The sizes of the databases Temporal keeps in PostgreSQL (the production shape's), MB. */
  const temporalDatabases = async () =>
    (
      await db().execute<Array<{ datname: string; mb: number }>>(
        `select datname, pg_database_size(datname) / 1048576.0 as mb from pg_database where datname like 'temporal%' order by 1`,
      )
    )
      .map((r) => `${r.datname} ${Number(r.mb).toFixed(0)} MB`)
      .join(', ');
  try {
    const { projectId } = stack.project;
    const workflowId = await fourStepAutomation(stack.api, stack.project.from, { waitFirst: WAIT_FIRST });
    const counts = async () => {
      const rows = await db().execute<Array<{ status: string; n: number }>>(
        'select status, count(*)::int as n from automation_executions where automation_id = ? group by status',
        [workflowId],
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    };
    /** Waits until `count` of the executions reach the phase's status, reporting progress; false when they stopped moving. */
    const phase = async (label: string, status: string): Promise<{ seconds: number; done: boolean }> => {
      const started = Date.now();
      let last = { at: started, n: 0 };
      let moved = started;
      let reported = started;
      for (;;) {
        const c = await counts();
        const n = c[status] ?? 0;
        const now = Date.now();
        if (n !== last.n) moved = now;
        if (now - reported >= REPORT_MS || n >= CONTACTS) {
          const rate = ((n - last.n) * 1000) / Math.max(1, now - last.at);
          const file = temporalDatabaseMb(temporalPid);
          const stored = file === null ? `Temporal's databases ${await temporalDatabases()}` : `Temporal's database ${file.toFixed(0)} MB`;
          console.log(
            `  ${label} +${((now - started) / 1000).toFixed(0)} s: ${n} ${status} (${rate.toFixed(1)}/s lately), ${JSON.stringify(c)}; ` +
              `memory (Pss, MB) ${mb(stack.usage.memory())}; ${stored}`,
          );
          last = { at: now, n };
          reported = now;
        }
        if (n >= CONTACTS) return { seconds: (now - started) / 1000, done: true };
        if (now - moved > STALL_MS) {
          console.log(`  ${label}: nothing moved for ${STALL_MS / 1000} s; stopped at ${JSON.stringify(c)}`);
          return { seconds: (now - started) / 1000, done: false };
        }
        await new Promise((r) => setTimeout(r, 2_000));
      }
    };
    /** Records `name` for every contact, chunk by chunk, as committed track requests would. */
    const record = async (name: string, data: object) => {
      for (let from = 1; from <= CONTACTS; from += CHUNK) {
        await db().execute(
          `insert into events (id, created_at, project_id, contact_id, name, data)
           select gen_random_uuid(), now(), ?, c.id, ?, ?::jsonb from contacts c
           where c.project_id = ? and c.email in (select 'member-' || i || '@bench.test' from generate_series(?::int, ?::int) i)`,
          [projectId, name, JSON.stringify(data), projectId, from, Math.min(CONTACTS, from + CHUNK - 1)],
        );
        await db().execute('select pg_notify(?, ?)', [OUTBOX_CHANNEL, '']);
      }
    };

    await db().execute(
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'member-' || i || '@bench.test', true, '{}' from generate_series(1, ?) i`,
      [projectId, CONTACTS],
    );
    await db().execute('vacuum analyze contacts');
    stack.usage.watch(5_000);
    console.log(`${CONTACTS} contacts; memory (Pss, MB) before the load: ${mb(stack.usage.memory())}`);
    const cpuStart = stack.usage.cpu();
    await record('signup', {});
    const park = await phase('park', 'WAITING');
    console.log(
      `${park.done ? 'parked' : 'NOT all parked'}: ${CONTACTS} executions in WAIT_FOR_EVENT after ${park.seconds.toFixed(0)} s ` +
        `(${(CONTACTS / park.seconds).toFixed(1)}/s); peak memory (Pss, MB) ${mb(stack.usage.peaks())}`,
    );
    if (!park.done) return;
    const parkedCpu = cpuBetween(cpuStart, stack.usage.cpu());
    console.log(`CPU per execution, parking: ${per(parkedCpu)}`);
    if (!RESUME) return;
    await record('activated', { plan: 'pro' });
    const resume = await phase('resume', 'COMPLETED');
    const cpu = cpuBetween(cpuStart, stack.usage.cpu());
    console.log(
      `${resume.done ? 'completed' : 'NOT all completed'}: ${CONTACTS} executions resumed and COMPLETED after ${resume.seconds.toFixed(0)} s ` +
        `(${(CONTACTS / resume.seconds).toFixed(1)}/s); peak memory (Pss, MB) ${mb(stack.usage.peaks())}`,
    );
    console.log(`CPU per execution, in all: ${per(cpu)}`);
    console.log(loadNote());
  } finally {
    await stack.close();
    await deps.temporal.client.connection.close();
    await closeDeps(deps);
    sink.stop();
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
