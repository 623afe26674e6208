/**
 * BENCH_EMAILS scheduled emails (default 10,000) due in the same minute (docs/sending.md "Scheduled sends"; figures in docs/contributors/sending.md):
 * the Temporal timer of each project and second sleeps until that second ends, then hands the project's
 * emails due by then to the delivery queue. The emails are created through POST /v1/send/batch (100 a request, BENCH_CONCURRENCY requests at a
 * time, default 4), due across the first whole minute that begins at least BENCH_LEAD_SECONDS (default 150)
 * after the run starts, one every 60/N s (BENCH_SPREAD=0: all at the minute's first instant). Prints:
 * - the Temporal server's empty-workflow start rate right now, the ceiling of the rest on a shared machine;
 * - creation: emails scheduled per second, and CPU per email of the API process, PostgreSQL and Temporal;
 * - release: when the last email was handed to SMTP (counted at the server) after the minute began, how late
 *   emails left after their sendAt (p50, p99, max, from the records: sent_at - scheduled_at) and how many left
 *   early (must be none), and CPU per email of the worker processes, PostgreSQL and Temporal.
 *
 * BENCH_WORKERS worker processes (default 1, test/helpers/worker-process.ts: Temporal worker and delivery
 * pump). The Temporal dev server of this worktree's ports (started if none runs, its search attributes
 * registered); own database `postwire_bench_scheduled`; an SMTP server that counts, in its own process.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createTemporalGateway } from '../src/temporal/client';
import { workerNodeOptions } from '../src/main/worker-heap';
import { ensureTemporal } from '../scripts/lib/temporal';
import { ports } from '../scripts/lib/ports';
import { bundleWorkflows, startWorkerProcess, workerEnv, type WorkerProcess } from '../test/helpers/worker-processes';
import { startApiProcess } from './lib/api-process';
import { treeCpuMs } from './lib/cpu';
import { PlatformUsage } from './lib/platform-usage';
import { loadNote, sendingBench, startCountingSink } from './lib/sending';
import { inParallel, temporalStartsPerSecond } from './lib/temporal-probe';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000);
const BATCH = 100;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const LEAD_SECONDS = Number(process.env.BENCH_LEAD_SECONDS ?? 150);
const SPREAD = process.env.BENCH_SPREAD !== '0';
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const MINUTE = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const temporalServer = await ensureTemporal(ports.temporal, ports.temporalUi, console.log);
  const sink = await startCountingSink();
  const taskQueue = `bench-scheduled-${randomBytes(4).toString('hex')}`;
  const settings = {
    SMTP_URL: sink.url,
    EMAIL_RATE_PER_SECOND: '0',
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
  };
  const bench = await sendingBench('postwire_bench_scheduled', settings);
  const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3106), bench.config.DATABASE_URL, {
    ...bench.env,
    API_RATE_LIMIT_PER_MINUTE: '0',
  });
  const bundle = await bundleWorkflows();
  const workers: WorkerProcess[] = [];
  const temporal = createTemporalGateway(bench.config);
  try {
    console.log(
      `Temporal server: ${(await temporalStartsPerSecond(temporal)).toFixed(0)} workflow starts/s of an empty workflow right now`,
    );
    for (let i = 0; i < WORKERS; i++) {
      workers.push(
        await startWorkerProcess({
          ...bench.env,
          ...workerEnv(bench.config, taskQueue),
          WORKER_WORKFLOW_BUNDLE: bundle,
          NODE_OPTIONS: workerNodeOptions(process.env.NODE_OPTIONS),
        }),
      );
    }
    const usage = new PlatformUsage({
      workers: () => workers.map((w) => w.pid),
      databaseUrl: bench.config.DATABASE_URL,
      temporalAddress: temporalServer.address,
    });
    const minute = Math.ceil((Date.now() + LEAD_SECONDS * 1000) / MINUTE) * MINUTE;
    const dueAt = (i: number) => new Date(minute + (SPREAD ? Math.floor((i * MINUTE) / EMAILS) : 0)).toISOString();
    const run = Date.now().toString(36);
    const body = `<html><body><p>Hello {{ name ?? "there" }},</p>${'<p>Your trial ends tomorrow; here is what you keep.</p>'.repeat(15)}</body></html>`;

    // Creation: the API, its PostgreSQL connections and the workflow starts.
    const apiBefore = treeCpuMs(api.pid);
    usage.begin();
    const created = performance.now();
    await inParallel(EMAILS / BATCH, CONCURRENCY, async (b) => {
      const items = Array.from({ length: BATCH }, (_, k) => {
        const i = b * BATCH + k;
        return {
          to: `reader-${i}-${run}@bench.test`,
          from: bench.from,
          subject: 'Your trial',
          body,
          sendAt: dueAt(i),
          tags: { n: String(i) },
        };
      });
      const res = await fetch(`${api.url}/v1/send/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bench.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      });
      if (!res.ok) throw new Error(`POST /v1/send/batch answered ${res.status}: ${await res.text()}`);
    });
    const creationSeconds = (performance.now() - created) / 1000;
    const creation = usage.end();
    const apiMs = treeCpuMs(api.pid) - apiBefore;
    const per = (ms: number) => (ms / EMAILS).toFixed(3);
    console.log(
      `created ${EMAILS} scheduled emails in ${creationSeconds.toFixed(1)} s (${(EMAILS / creationSeconds).toFixed(0)}/s); CPU per email: ` +
        `API ${per(apiMs)} ms, PostgreSQL ${per(creation.cpuMs.postgres)} ms, Temporal ${per(creation.cpuMs.temporal)} ms; ${loadNote()}`,
    );
    const lead = minute - Date.now();
    if (lead < 5_000)
      throw new Error(`creation ended ${((5_000 - lead) / 1000).toFixed(0)} s too late for the minute; raise BENCH_LEAD_SECONDS`);

    // Release: from a few seconds before the minute until the SMTP server counted every email.
    await sleep(lead - 5_000);
    await sink.reset();
    usage.begin();
    let lastAt = 0;
    for (;;) {
      const counts = await sink.counts();
      if (counts.messages >= EMAILS) {
        lastAt = Date.now();
        break;
      }
      if (Date.now() - minute > 10 * MINUTE) throw new Error(`only ${counts.messages} of ${EMAILS} emails arrived within 10 minutes`);
      await sleep(250);
    }
    const release = usage.end();
    const counts = await sink.counts();
    const rows = await bench.orm.em
      .fork()
      .execute<Array<{ late_ms: number }>>(
        `select (extract(epoch from "sent_at" - "scheduled_at") * 1000)::float8 as late_ms from emails where project_id = ? and "sent_at" is not null`,
        [bench.projectId],
      );
    const late = rows.map((r) => r.late_ms).sort((a, b) => a - b);
    const releaseTotal = release.cpuMs.workers + release.cpuMs.postgres + release.cpuMs.temporal;
    console.log(
      `released: ${counts.messages} messages to ${counts.recipients} recipients (${counts.repeatedRecipients} repeated); the last handed to SMTP ` +
        `${((lastAt - minute) / 1000).toFixed(1)} s after the minute began (${SPREAD ? 'due across the minute' : 'all due at its first instant'}); ` +
        `${late.filter((ms) => ms < 0).length} left before their sendAt`,
    );
    console.log(
      `  late after sendAt: p50 ${(percentile(late, 50) / 1000).toFixed(2)} s, p99 ${(percentile(late, 99) / 1000).toFixed(2)} s, ` +
        `max ${(late.at(-1)! / 1000).toFixed(2)} s`,
    );
    console.log(
      `  CPU per email: ${per(releaseTotal)} ms in all: workers ${per(release.cpuMs.workers)} ms (${WORKERS} process${WORKERS === 1 ? '' : 'es'}: ` +
        `timers, release, DKIM, SMTP), PostgreSQL ${per(release.cpuMs.postgres)} ms, Temporal ${per(release.cpuMs.temporal)} ms; ` +
        `peak memory: worker ${release.peakMb.worker.toFixed(0)} MB, Temporal ${release.peakMb.temporal.toFixed(0)} MB; ${loadNote()}`,
    );
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    for await (const wf of temporal.client.workflow.list({ query: `TaskQueue="${taskQueue}" AND ExecutionStatus="Running"` })) {
      await temporal.client.workflow
        .getHandle(wf.workflowId, wf.runId)
        .terminate('benchmark finished')
        .catch(() => undefined);
    }
    await temporal.client.connection.close();
    await rm(bundle, { force: true });
    await api.stop();
    sink.stop();
    await bench.close();
    await temporalServer.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
