/**
 * A campaign to BENCH_CONTACTS contacts (default 100,000) end to end: from `POST /campaigns/{id}/send` until
 * the campaign is SENT and a local SMTP server (its own process) has counted every message. Headline: the
 * CPU per email of everything but that server (worker processes, PostgreSQL, Temporal; target at most
 * 0.45 ms), beside emails/s (target at least 3,500) and peak memory. Then the same audience again while the
 * worker is killed (SIGKILL) twice during the send and replaced: still exactly one message per recipient,
 * counted at the SMTP server (not after BENCH_ORDER=abba, whose last run is the baseline's).
 *
 * BENCH_WORKERS worker processes (default 2) run the real worker's services (test/helpers/worker-process.ts),
 * among them the campaign workflow, the delivery pump and the events outbox's dispatcher, whose hand-off of
 * each `email.sent` event to its consumers is in the figures (a run waits for it after the last message); the
 * API runs in this process. The project's sending rate is unlimited, so the figure is the platform's own
 * capacity. Works in its own database, `postwire_bench_campaign`, on the server of `npm start` (or
 * DATABASE_URL's), and the Temporal dev server of `npm start`.
 * BENCH_BASELINE=<git revision> has that revision's workers send the same campaign first (its code from `git
 * archive`, the API of this checkout), so that before and after are measured in one run.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeDeps, createDeps } from '../src/bootstrap';
import { createApp } from '../src/app/app';
import type { TemporalGateway } from '../src/temporal/client';
import { startWorkerProcess, workerEnv, type WorkerProcess } from '../test/helpers/worker-processes';
import { workerNodeOptions } from '../src/main/worker-heap';
import { BackendCpuSpan } from './lib/backend-cpu';
import { SendHalves } from './lib/send-halves';
import { walSince } from './lib/wal';
import { PlatformUsage } from './lib/platform-usage';
import { runListmonk } from './lib/listmonk';
import { rsa2048SignMs } from './lib/rsa-speed';
import { CAMPAIGN_CONTENT } from './lib/campaign-content';
import { messageWork, messageWorkMs, messageWorkStages } from './lib/message-work';
import { thisCheckout, treeAt, type CodeTree } from './lib/code-tree';
import { benchWorkerNodeFlags } from './lib/node-process';
import { loadNote, sendingBench, startCountingSink } from './lib/sending';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
/** Recipients of the message-work calibration (bench/lib/message-work.ts), three rounds. */
const MESSAGE_WORK_EMAILS = 2_000;
/** BENCH_KILL_RUN=0 leaves out the second run (a worker killed twice), e.g. for a quick look or 1,000,000 recipients. */
const KILL_RUN = process.env.BENCH_KILL_RUN !== '0';
/** How often PostgreSQL's backends are sampled for their names' figures during a run. */
const BACKEND_SAMPLE_MS = 1_000;
const TARGET = 3_500;
/** CPU per email of everything but the SMTP sink, in ms. */
const CPU_TARGET = 0.45;
/** A listmonk checkout with its binary built (bench/lib/listmonk.ts): it sends the same campaign first, for the comparison. */
const LISTMONK_DIR = process.env.BENCH_LISTMONK_DIR;
/** Issue 28's bar: CPU per email at most this many times listmonk's plus one RSA-2048 signature. */
const LISTMONK_BAR = 1.5;
/** BENCH_BASELINE=<git revision>: that revision's workers send the same campaign first (before and after in one run). */
const BASELINE = process.env.BENCH_BASELINE;
/**
 * BENCH_ORDER=abba (with BENCH_BASELINE): the baseline, this checkout, this checkout, the baseline, and the mean
 * of each tree's two runs at the end, so that neither pays alone for running after the other (a later run on
 * the same tables costs more: docs/contributors/campaigns.md "A run's order").
 */
const ABBA = process.env.BENCH_ORDER === 'abba';
/** Progress (share of messages counted) at which the second run kills a worker. */
const KILL_AT = [0.3, 0.65];
/** How long a run waits after the last message for its `email.sent` events to be dispatched (their CPU is in its figures). */
const DISPATCH_WAIT_MS = 30_000;

/**
 * listmonk sends the same campaign to as many subscribers, to the same SMTP server (bench/lib/listmonk.ts):
 * answers its CPU per email (listmonk and PostgreSQL), printed with its rate.
 */
async function sendWithListmonk(
  dir: string,
  databaseUrl: string,
  sink: Awaited<ReturnType<typeof startCountingSink>>,
  content: { subject: string; body: string },
): Promise<number> {
  // The same server, as its administrator (the benchmark's login is the embedded server's superuser).
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  await sink.reset();
  const run = await runListmonk(
    dir,
    admin.toString(),
    CONTACTS,
    Number(new URL(sink.url).port),
    { subject: content.subject, html: content.body },
    async () => (await sink.counts()).messages,
  );
  const per = (ms: number) => (ms / CONTACTS).toFixed(3);
  console.log(
    `listmonk: campaign to ${CONTACTS} subscribers finished and counted in ${run.seconds.toFixed(1)} s (${(CONTACTS / run.seconds).toFixed(0)} emails/s): ` +
      `CPU per email ${per(run.cpuMs.listmonk + run.cpuMs.postgres)} ms (listmonk ${per(run.cpuMs.listmonk)}, PostgreSQL ${per(run.cpuMs.postgres)}); ` +
      `PostgreSQL's WAL ${(run.walBytes / CONTACTS).toFixed(0)} bytes per email; ` +
      `at the SMTP server: ${JSON.stringify(await sink.counts())}`,
  );
  return (run.cpuMs.listmonk + run.cpuMs.postgres) / CONTACTS;
}

/** A run's CPU per email, in ms, by kind of process (their sum is the headline). */
interface Figures {
  workers: number;
  postgres: number;
  temporal: number;
}

const totalOf = (f: Figures) => f.workers + f.postgres + f.temporal;

/** Each tree's mean over its runs (BENCH_ORDER=abba), in the order the trees first ran, and the change. */
function printMeans(runs: Array<{ tree: { label: string }; figures: Figures }>): void {
  const byTree = new Map<string, Figures[]>();
  for (const { tree, figures } of runs) byTree.set(tree.label, [...(byTree.get(tree.label) ?? []), figures]);
  const means = [...byTree].map(([label, all]) => {
    const mean = (key: keyof Figures) => all.reduce((sum, f) => sum + f[key], 0) / all.length;
    return { label, figures: { workers: mean('workers'), postgres: mean('postgres'), temporal: mean('temporal') } };
  });
  console.log("means of each tree's runs (ABBA), CPU per email:");
  for (const { label, figures } of means)
    console.log(
      `  ${label.slice(0, 40)}: ${totalOf(figures).toFixed(3)} ms (workers ${figures.workers.toFixed(3)}, ` +
        `PostgreSQL ${figures.postgres.toFixed(3)}, Temporal ${figures.temporal.toFixed(3)})`,
    );
  const [before, after] = means.map((m) => totalOf(m.figures));
  if (before !== undefined && after !== undefined) console.log(`  change: ${(((after - before) / before) * 100).toFixed(1)}%`);
}

async function main(): Promise<void> {
  const sink = await startCountingSink();
  const taskQueue = `bench-campaign-${randomBytes(4).toString('hex')}`;
  const bench = await sendingBench('postwire_bench_campaign', {
    SMTP_URL: sink.url,
    EMAIL_RATE_PER_SECOND: '0',
    TEMPORAL_TASK_QUEUE: taskQueue,
  });
  const deps = await createDeps('bench', bench.config);
  const server: Server = createApp(deps).koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const current = thisCheckout();
  const baseline = BASELINE ? await treeAt(BASELINE) : null;
  const trees: CodeTree[] = baseline ? (ABBA ? [baseline, current, current, baseline] : [baseline, current]) : [current];
  const bundles: string[] = [];
  const workerSettings = {
    ...bench.env,
    ...workerEnv(bench.config, taskQueue),
    DELIVERY_LEASE_MS: '30000',
    PGAPPNAME: 'postwire worker',
    // The heap settings the real worker runs with (npm start, the image).
    NODE_OPTIONS: workerNodeOptions(process.env.NODE_OPTIONS),
  };
  const workerNodeArgs = benchWorkerNodeFlags();
  const workers: WorkerProcess[] = [];
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${bench.secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown> & { data: Record<string, unknown> };
  };

  try {
    // Every message is DKIM-signed once: the signature measured here is the floor the figures are read against.
    const signMs = await rsa2048SignMs();
    console.log(
      `calibration: one RSA-2048 signature takes ${signMs === null ? '(openssl not found)' : `${signMs.toFixed(3)} ms`} here (openssl speed, one core)`,
    );
    // The workers' own work on each message, measured alone in this process before anything else runs: what
    // the workers spend besides it is the pipeline's (database, Temporal, SMTP, and their garbage).
    const work = await messageWork(MESSAGE_WORK_EMAILS, 3);
    console.log(
      `calibration: the message work alone (bench/message.ts) takes ${messageWorkMs(work).toFixed(3)} ms per email here ` +
        `(${messageWorkStages(work)})`,
    );
    // Before Postwire's workers start, so that PostgreSQL's CPU in this part is listmonk's alone.
    const listmonk = LISTMONK_DIR ? await sendWithListmonk(LISTMONK_DIR, bench.config.DATABASE_URL, sink, CAMPAIGN_CONTENT) : null;

    // Earlier runs' projects (and their contacts, campaigns and emails) are not this run's.
    await bench.orm.em.fork().execute(`delete from projects where name like 'postwire_bench_campaign %' and id <> ?`, [bench.projectId]);
    await bench.orm.em.fork().execute(
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'reader-' || i || '@example.test', true, jsonb_build_object('name', 'Reader ' || i)
       from generate_series(1, ?) i`,
      [bench.projectId, CONTACTS],
    );
    // As autovacuum would have done for contacts that did not all arrive a moment ago.
    await bench.orm.em.fork().execute('vacuum analyze contacts');

    /** Sends the campaign and waits until it is SENT and the sink has counted `CONTACTS` messages. */
    async function run(id: string, onProgress: (share: number) => Promise<void> = async () => undefined) {
      await sink.reset();
      const started = performance.now();
      await api('POST', `/campaigns/${id}/send`, {});
      for (;;) {
        const counts = await sink.counts();
        await onProgress(counts.messages / CONTACTS);
        if (counts.messages >= CONTACTS && (await api('GET', `/campaigns/${id}`)).status === 'SENT') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const seconds = (performance.now() - started) / 1000;
      return { seconds, counts: await sink.counts(), undispatched: await dispatched() };
    }

    /**
     * Waits (up to DISPATCH_WAIT_MS) until the campaign's `email.sent` events are handed to their consumers, as
     * the real worker does with every event: their dispatch is in the figures. Returns how many were left; a
     * tree before the outbox table (migration 0152, 5653e6a) cannot dispatch on this schema and leaves them all.
     * The project's undispatched events are this run's (the last run's are forgotten), counted in the outbox
     * (event_outbox), which holds only those, so that the wait itself costs next to nothing inside the figures.
     */
    async function dispatched(): Promise<number> {
      const left = async () =>
        Number(
          (
            await bench.orm.em
              .fork()
              .execute<Array<{ n: number }>>(`select count(*)::int as n from event_outbox where project_id = ?`, [bench.projectId])
          )[0]!.n,
        );
      const until = performance.now() + DISPATCH_WAIT_MS;
      let n = await left();
      while (n > 0 && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        n = await left();
      }
      return n;
    }

    const usage = new PlatformUsage({
      workers: () => workers.map((w) => w.pid),
      databaseUrl: bench.config.DATABASE_URL,
      temporalAddress: bench.config.TEMPORAL_ADDRESS,
    });
    const report = (label: string, seconds: number) => {
      const { cpuMs, peakMb } = usage.end();
      const per = (ms: number) => (ms / CONTACTS).toFixed(3);
      const total = cpuMs.workers + cpuMs.postgres + cpuMs.temporal;
      const rate = CONTACTS / seconds;
      // CPU per email hardly depends on what else the machine runs, unlike the rate: it is the headline.
      console.log(
        `${label}: CPU per email ${per(total)} ms, everything but the SMTP sink (target <= ${CPU_TARGET}: ${total / CONTACTS <= CPU_TARGET ? 'met' : 'MISSED'}); ` +
          `${rate.toFixed(0)} emails/s end to end (target >= ${TARGET}: ${rate >= TARGET ? 'met' : 'MISSED'})`,
      );
      console.log(
        `  per email: workers ${per(cpuMs.workers)} ms (${WORKERS} processes: workflow, rendering, enqueue, DKIM, SMTP), ` +
          `PostgreSQL ${per(cpuMs.postgres)} ms, Temporal ${per(cpuMs.temporal)} ms` +
          (signMs ? `; in all ${(total / CONTACTS / signMs).toFixed(1)} times one RSA-2048 signature` : ''),
      );
      console.log(
        `  the workers besides the message work: ${(cpuMs.workers / CONTACTS - messageWorkMs(work)).toFixed(3)} ms per email ` +
          `(the message work ${messageWorkMs(work).toFixed(3)} ms)`,
      );
      if (listmonk !== null && signMs !== null) {
        const bar = LISTMONK_BAR * (listmonk + signMs);
        const mine = total / CONTACTS;
        console.log(
          `  against listmonk in this run: ${(mine / listmonk).toFixed(1)} times its CPU per email; the bar, ${LISTMONK_BAR} x (listmonk ` +
            `${listmonk.toFixed(3)} + one signature ${signMs.toFixed(3)}) = ${bar.toFixed(3)} ms: ${mine <= bar ? 'met' : 'MISSED'} (${(mine / bar).toFixed(2)} times it)`,
        );
      }
      console.log(
        `  peak resident memory of one process: worker ${peakMb.worker.toFixed(0)} MB, PostgreSQL ${peakMb.postgres.toFixed(0)} MB, ` +
          `Temporal ${peakMb.temporal.toFixed(0)} MB`,
      );
      return {
        workers: cpuMs.workers / CONTACTS,
        postgres: cpuMs.postgres / CONTACTS,
        temporal: cpuMs.temporal / CONTACTS,
      };
    };

    // Each run starts where autovacuum would leave the runs before it (their rows vacuumed, the tables analyzed),
    // outside its figures: otherwise a later run pays for cleaning up after an earlier one.
    const settle = () => bench.orm.em.fork().execute('vacuum analyze emails, email_queue, events, campaign_recipients, email_stats');

    /** The workers of `tree` send a new campaign to every contact: the first run's figures. */
    async function firstRun(tree: CodeTree) {
      const bundle = path.join(os.tmpdir(), `postwire-bench-campaign-${process.pid}-${bundles.length}.js`);
      bundles.push(bundle);
      await tree.bundle(bundle);
      const startWorker = () =>
        startWorkerProcess(
          { ...workerSettings, WORKER_WORKFLOW_BUNDLE: bundle },
          // Time to end by itself: with --cpu-prof, the 5 s that tests give a stop killed the workers before
          // their main threads' profiles were written.
          { nodeArgs: workerNodeArgs, script: path.join(tree.dir, 'test', 'helpers', 'worker-process.ts'), stopGraceMs: 60_000 },
        );
      for (let i = 0; i < WORKERS; i++) workers.push(await startWorker());
      const created = await api('POST', '/campaigns', {
        name: 'Spring sale',
        subject: CAMPAIGN_CONTENT.subject,
        body: CAMPAIGN_CONTENT.body,
        from: bench.from,
        audienceType: 'ALL',
      });
      const campaignId = String(created.data.id);
      await settle();
      const backends = new BackendCpuSpan((sql) => bench.orm.em.fork().execute(sql));
      await backends.sample();
      const wal = await walSince((sql) => bench.orm.em.fork().execute(sql));
      usage.begin();
      // Through the run too: a connection that ends before the run does (a pool's idle one, an autovacuum worker)
      // keeps its name for what it spent until its last sample. A sample that fails leaves its figures to the next.
      const sampling = setInterval(() => void backends.sample().catch(() => undefined), BACKEND_SAMPLE_MS);
      const halves = new SendHalves(CONTACTS, () => usage.elapsed());
      const first = await run(campaignId, async (share) => halves.progress(share)).finally(() => clearInterval(sampling));
      const halvesLine = halves.report();
      const figures = report(
        `campaign to ${CONTACTS} contacts, SENT and counted at the SMTP server in ${first.seconds.toFixed(1)} s`,
        first.seconds,
      );
      console.log(`  at the SMTP server: ${JSON.stringify(first.counts)}; email.sent events not yet dispatched: ${first.undispatched}`);
      await backends.sample();
      console.log(
        `  PostgreSQL backends, per email: ${[...backends.byApplication()]
          .map(([name, ms]) => `${name} ${(ms / CONTACTS).toFixed(3)} ms`)
          .join(', ')}`,
      );
      console.log(`  ${halvesLine}`);
      // The server's, as listmonk's above: rows, index entries and locks, a figure that hardly moves between runs.
      console.log(`  PostgreSQL's WAL: ${((await wal()) / CONTACTS).toFixed(0)} bytes per email`);
      return { campaignId, startWorker, figures };
    }

    /**
     * Takes a run's campaign, emails and events out again, so that the next tree starts from the tables the first
     * one did: the same code run twice cost 0.25 ms more per email the second time with them left (PostgreSQL
     * 0.14 of it), 0.08 without (PostgreSQL 0.02; docs/contributors/campaigns.md).
     */
    const forget = async (campaignId: string) => {
      const em = bench.orm.em.fork();
      await em.execute(`delete from events where project_id = ? and data->>'campaignId' = ?`, [bench.projectId, campaignId]);
      await em.execute('delete from emails where campaign_id = ?', [campaignId]);
      await em.execute('delete from campaigns where id = ?', [campaignId]);
    };

    let last: Awaited<ReturnType<typeof firstRun>> | undefined;
    const runs: Array<{ tree: CodeTree; figures: Figures }> = [];
    for (const tree of trees) {
      if (last) {
        await Promise.all(workers.splice(0).map((w) => w.stop()));
        await forget(last.campaignId);
      }
      if (trees.length > 1) console.log(`== ${tree.label}`);
      last = await firstRun(tree);
      runs.push({ tree, figures: last.figures });
    }
    if (ABBA) printMeans(runs);
    // The machine's speed moves by 15% and more within an hour (docs/contributors/campaigns.md): the same
    // signature measured again says how far it moved while the runs were measured.
    const signAfter = signMs === null ? null : await rsa2048SignMs();
    if (signMs !== null && signAfter !== null) {
      console.log(
        `calibration after the runs: one RSA-2048 signature takes ${signAfter.toFixed(3)} ms ` +
          `(${signAfter >= signMs ? '+' : ''}${(((signAfter - signMs) / signMs) * 100).toFixed(1)}% against the first calibration)`,
      );
    }
    const { campaignId, startWorker } = last!;
    // The kill run is this checkout's: after an ABBA order the last workers are the baseline's.
    if (!KILL_RUN || ABBA) return;

    const copy = await api('POST', `/campaigns/${campaignId}/duplicate`);
    const kills = [...KILL_AT];
    await settle();
    usage.begin();
    const second = await run(String(copy.id), async (share) => {
      if (kills.length === 0 || share < kills[0]!) return;
      kills.shift();
      const victim = workers.shift()!;
      await victim.kill();
      console.log(`  killed worker ${victim.pid} (SIGKILL) at ${(share * 100).toFixed(0)}% of messages counted; starting a replacement`);
      workers.push(await startWorker());
    });
    const exact = second.counts.messages === CONTACTS && second.counts.recipients === CONTACTS && second.counts.repeatedRecipients === 0;
    report(`same campaign again with a worker killed twice, SENT in ${second.seconds.toFixed(1)} s`, second.seconds);
    console.log(
      `  at the SMTP server ` +
        `${JSON.stringify(second.counts)}: ${exact ? 'exactly one message per recipient' : 'NOT exactly one message per recipient'}`,
    );
    // What the killed workers' batches and their successors wrote: counters against the rows they count.
    const copyId = String(copy.id);
    const [tally] = await bench.orm.em.fork().execute<Array<{ rows: number; rollup: number; events: number }>>(
      `select (select count(*)::int from emails where campaign_id = ? and sent_at is not null) as rows,
         (select coalesce(sum(sent), 0)::int from email_stats where campaign_id = ?) as rollup,
         (select count(*)::int from events where project_id = ? and name = 'email.sent' and data->>'campaignId' = ?) as events`,
      [copyId, copyId, bench.projectId, copyId],
    );
    console.log(`  SENT rows ${tally!.rows}, rollup ${tally!.rollup}, email.sent events ${tally!.events}`);
    console.log(`  ${loadNote()}`);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(bundles.map((bundle) => rm(bundle, { force: true })));
    await Promise.all([...new Set(trees)].map((tree) => tree.remove()));
    await new Promise((resolve) => server.close(resolve));
    await releaseQueue(deps.temporal, 'benchmark finished').catch(() => undefined);
    await deps.temporal.client.connection.close();
    await closeDeps(deps);
    sink.stop();
    await bench.close();
  }
}

/** Ends whatever a failed run left running on the benchmark's task queue. */
async function releaseQueue({ client, taskQueue }: TemporalGateway, reason: string): Promise<void> {
  for await (const wf of client.workflow.list({ query: `TaskQueue="${taskQueue}" AND ExecutionStatus="Running"` })) {
    await client.workflow.getHandle(wf.workflowId, wf.runId).terminate(reason);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
