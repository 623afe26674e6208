/**
 * Automations under load: BENCH_CONTACTS contacts (default 2,000) track the trigger event of a 4-step
 * workflow (SEND_EMAIL, WAIT_FOR_EVENT, CONDITION, SEND_EMAIL), then the awaited event. Headline: the CPU
 * per execution of every process (worker, Temporal server, PostgreSQL, API), read from /proc, beside the
 * history events and workflow tasks one execution takes. Then:
 * - executions started and parked in WAIT_FOR_EVENT per second (trigger phase),
 * - executions completed per second once the awaited events come as fast as the API takes them (resume phase),
 * - event-to-resume latency p50/p99 (from the awaited event's record to the workflow taking it) of
 *   BENCH_LATENCY_CONTACTS more executions (default 300) whose events come at a rate the stack keeps up with:
 *   BENCH_EVENT_RATE per second, or half the completion rate just measured,
 * - the memory (Pss) of every process, before the load and at its peak.
 *
 * Calibration, in the same run: a workflow that does nothing, BENCH_EMPTY_WORKFLOWS of them (default 500),
 * on a worker of its own: the Temporal server's own rate and its CPU and the SDK's per workflow, the floor
 * every figure above sits on.
 *
 * BENCH_BASELINE=<git revision> runs the same passes with that revision's worker and API first (its code from
 * `git archive`, this checkout's node_modules and database), for before and after in one run.
 *
 * One worker process runs src/main/worker.ts as deployed (Temporal worker, events outbox, delivery pump; a
 * workflow bundle built beforehand and WORKER_NODE_OPTIONS, as npm start and the image run it), the API
 * src/main/api.ts in a process of its own without its per-project rate limit, the SMTP server in its own. Own
 * database `postwire_bench_automation` on the server of `npm start` (or DATABASE_URL's); the Temporal dev
 * server of `npm start` (TEMPORAL_ADDRESS).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { closeDeps, createDeps } from '../src/bootstrap';
import type { Deps } from '../src/deps';
import { thisCheckout, treeAt, type CodeTree } from './lib/code-tree';
import { describeShape, historyShape, type HistoryShape } from './lib/history-shape';
import { threadsCpuMs } from './lib/cpu';
import { cpuBetween, listenerOf, ProcessUsage, type CpuReading } from './lib/process-usage';
import { inParallel, percentile, startNode } from './lib/node-process';
import { fourStepAutomation, startAutomationStack, type AutomationStack } from './lib/automation-stack';
import { clusterAutomationStack, clusterBench } from './lib/cluster-stack';
import { loadNote, sendingBench, startSmtpSink, type SendingBench } from './lib/sending';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2_000);
const LATENCY_CONTACTS = Number(process.env.BENCH_LATENCY_CONTACTS ?? 300);
const EMPTY_WORKFLOWS = Number(process.env.BENCH_EMPTY_WORKFLOWS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
/** Awaited events per second of the latency phase; 0 (the default) takes half the completion rate just measured. */
const EVENT_RATE = Number(process.env.BENCH_EVENT_RATE ?? 0);
const BASELINE = process.env.BENCH_BASELINE;
/** `cluster`: the production shape of `npm run cluster` (docs/cluster.md) instead of npm start's stack. */
const SHAPE = process.env.BENCH_SHAPE ?? 'dev';
/** Histories fetched to count events and workflow tasks. */
const SAMPLED_HISTORIES = 20;
/** No execution moving for this long ends a pass: some are stuck for good. */
/** Idle time measured before each pass. */
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 15) * 1000;
const STALL_MS = Number(process.env.BENCH_STALL_SECONDS ?? 180) * 1000;
const TARGETS = { cpuMs: 70, completedPerSecond: 42, p99Ms: 1_000 };

/** The Temporal server's and the SDK's cost of a workflow that does nothing: the floor under every figure. */
async function calibrate(deps: Deps, temporalPids: () => number[]) {
  const taskQueue = `bench-empty-${randomBytes(4).toString('hex')}`;
  const worker = await startNode(
    path.join(__dirname, 'lib', 'empty-workflow', 'worker.ts'),
    path.join(__dirname, '..'),
    { TEMPORAL_ADDRESS: deps.config.TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: deps.config.TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE: taskQueue },
    (line) => line === 'ready',
  );
  const usage = new ProcessUsage([
    { name: 'Temporal', pids: temporalPids },
    { name: 'SDK worker', pids: () => [worker.pid] },
  ]);
  try {
    const ids = Array.from({ length: EMPTY_WORKFLOWS }, (_, i) => `bench-empty-${taskQueue}-${i}`);
    const before = usage.cpu();
    const started = performance.now();
    await inParallel(
      EMPTY_WORKFLOWS,
      async (i) => void (await deps.temporal.client.workflow.execute('benchEmpty', { taskQueue, workflowId: ids[i]!, args: [] })),
      CONCURRENCY,
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuBetween(before, usage.cpu());
    const shape = await historyShape(deps.temporal.client, ids.slice(0, 5));
    return {
      perSecond: EMPTY_WORKFLOWS / seconds,
      temporalMs: cpu.Temporal! / EMPTY_WORKFLOWS,
      sdkMs: cpu['SDK worker']! / EMPTY_WORKFLOWS,
      shape,
    };
  } finally {
    await worker.stop();
  }
}

interface PassResult {
  label: string;
  cpu: CpuReading;
  /** What the processes would have spent idle over the same time (measured before the load). */
  idleCpu: CpuReading;
  triggerCpu: CpuReading;
  /** The resume side of the executions whose events came at full speed, and of those paced. */
  resumeCpu: CpuReading;
  pacedCpu: CpuReading;
  /** The worker's CPU by thread name over the three phases. */
  workerThreads: CpuReading;
  triggerPerSecond: number;
  completedPerSecond: number;
  eventRate: number;
  p50: number;
  p99: number;
  max: number;
  shape: HistoryShape;
  idleMb: Record<string, number>;
  peakMb: Record<string, number>;
  emails: Record<string, number>;
  /** Executions by status at the end: all COMPLETED unless some got stuck. */
  ended: Record<string, number>;
}

/** The three phases on `stack` (its own project); `label` names it in the report. */
async function pass(label: string, stack: AutomationStack, bench: SendingBench, deps: Deps): Promise<PassResult> {
  const { api, usage, workerPids, project } = stack;
  try {
    const workflowId = await fourStepAutomation(api, project.from);
    const db = () => bench.orm.em.fork();
    const counts = async () => {
      const rows = await db().execute<Array<{ status: string; n: number }>>(
        'select status, count(*)::int as n from automation_executions where automation_id = ? group by status',
        [workflowId],
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    };
    /**
     * Waits for `done`, or until nothing has moved for STALL_MS: executions stuck for good are reported, and the
     * pass goes on. Answers when the counts last moved, so a phase's rate leaves the wait for the stuck ones out.
     */
    const until = async (done: (c: Record<string, number>) => boolean): Promise<number> => {
      let last = '';
      let changed = performance.now();
      for (;;) {
        const c = await counts();
        if (done(c)) return performance.now();
        if (c.FAILED) throw new Error(`${c.FAILED} executions FAILED`);
        if (JSON.stringify(c) !== last) [last, changed] = [JSON.stringify(c), performance.now()];
        if (performance.now() - changed > STALL_MS) {
          console.log(`executions stopped moving for ${STALL_MS / 1000} s: ${last}`);
          return changed;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const email = (i: number) => `member-${i}@bench.test`;
    const all = CONTACTS + LATENCY_CONTACTS;

    usage.watch();
    const idleMb = usage.memory();
    // What every process spends doing nothing (polls, timers, autovacuum), per second: a phase that lasts longer
    // carries more of it, so the figures net of it compare phases and runs of different pace.
    const idleFrom = usage.cpu();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idlePerSecond = Object.fromEntries(Object.entries(cpuBetween(idleFrom, usage.cpu())).map(([k, v]) => [k, (v * 1000) / IDLE_MS]));
    const cpuStart = usage.cpu();
    const loadStart = performance.now();
    const threadsStart = threadsCpuMs(workerPids());
    const triggerStart = performance.now();
    await inParallel(all, async (i) => void (await api('POST', '/events/track', { email: email(i), event: 'signup' })), CONCURRENCY);
    const triggerSeconds = ((await until((c) => (c.WAITING ?? 0) >= all)) - triggerStart) / 1000;
    const triggered = usage.cpu();
    const triggerCpu = cpuBetween(cpuStart, triggered);

    const resumeStart = performance.now();
    await inParallel(
      CONTACTS,
      async (i) => void (await api('POST', '/events/track', { email: email(i), event: 'activated', data: { plan: 'pro' } })),
      CONCURRENCY,
    );
    const resumeEnd = await until((c) => (c.COMPLETED ?? 0) >= CONTACTS);
    const completedPerSecond = Math.min(CONTACTS, (await counts()).COMPLETED ?? 0) / ((resumeEnd - resumeStart) / 1000);
    const resumed = usage.cpu();

    // Awaited events at a pace the stack keeps up with: each execution's latency is then its event's own way.
    const eventRate = EVENT_RATE || Math.max(1, Math.floor(completedPerSecond / 2));
    const paceStart = performance.now();
    await inParallel(
      LATENCY_CONTACTS,
      async (k) => {
        const due = paceStart + (k * 1000) / eventRate;
        if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
        await api('POST', '/events/track', { email: email(CONTACTS + k), event: 'activated', data: { plan: 'pro' } });
      },
      CONCURRENCY,
    );
    await until((c) => (c.COMPLETED ?? 0) >= all);
    const ended = await counts();
    const cpuEnd = usage.cpu();
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const cpu = cpuBetween(cpuStart, cpuEnd);
    const resumeCpu = cpuBetween(triggered, resumed);
    const pacedCpu = cpuBetween(resumed, cpuEnd);
    const workerThreads = cpuBetween(threadsStart, threadsCpuMs(workerPids()));
    usage.stop();

    // From the awaited event's record to the moment the workflow took it (its step's end).
    const latencies = (
      await db().execute<Array<{ ms: number }>>(
        `select extract(epoch from ((x.history -> 1 ->> 'completedAt')::timestamptz - e.created_at)) * 1000 as ms
         from automation_executions x join contacts c on c.id = x.contact_id
         join events e on e.id = (x.history -> 1 -> 'output' ->> 'eventId')::uuid
         where x.automation_id = ? and c.email in (?)`,
        [workflowId, Array.from({ length: LATENCY_CONTACTS }, (_, k) => email(CONTACTS + k))],
      )
    )
      .map((r) => Number(r.ms))
      .sort((a, b) => a - b);
    const sampled = await db().execute<Array<{ temporal_workflow_id: string }>>(
      'select temporal_workflow_id from automation_executions where automation_id = ? order by random() limit ?',
      [workflowId, SAMPLED_HISTORIES],
    );
    const shape = await historyShape(
      deps.temporal.client,
      sampled.map((r) => r.temporal_workflow_id),
    );
    const emails = await db().execute<Array<{ status: string; n: number }>>(
      `select status, count(*)::int as n from emails where project_id = ? group by status`,
      [project.projectId],
    );
    return {
      label,
      cpu,
      idleCpu: Object.fromEntries(Object.entries(idlePerSecond).map(([k, v]) => [k, v * loadSeconds])),
      triggerCpu,
      resumeCpu,
      pacedCpu,
      workerThreads,
      triggerPerSecond: all / triggerSeconds,
      completedPerSecond,
      eventRate,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1]!,
      shape,
      idleMb,
      peakMb: usage.peaks(),
      emails: Object.fromEntries(emails.map((r) => [r.status, r.n])),
      ended,
    };
  } finally {
    stack.usage.stop();
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const sum = (r: CpuReading) => Object.values(r).reduce((a, b) => a + b, 0);
const perExecution = (r: CpuReading, n: number) =>
  Object.entries(r)
    .map(([name, v]) => `${name} ${ms(v / n)}`)
    .join(' + ');

/** The CPU of the load less what the processes would have spent idle over as long. */
const netOf = (r: PassResult): CpuReading =>
  Object.fromEntries(Object.entries(r.cpu).map(([name, v]) => [name, Math.max(0, v - (r.idleCpu[name] ?? 0))]));

function report(r: PassResult): void {
  const all = CONTACTS + LATENCY_CONTACTS;
  const total = sum(r.cpu) / all;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(`\n== ${r.label}`);
  console.log(
    `CPU per 4-step execution, every process: ${ms(total)} = ${perExecution(r.cpu, all)} (target <= ${TARGETS.cpuMs} ms: ${verdict(total <= TARGETS.cpuMs)})`,
  );
  const net = netOf(r);
  console.log(`  net of what the processes spend idle over as long: ${ms(sum(net) / all)} = ${perExecution(net, all)}`);
  console.log(
    `  of which the trigger phase (start, first email, park): ${ms(sum(r.triggerCpu) / all)} = ${perExecution(r.triggerCpu, all)}`,
  );
  console.log(
    `  the resume side, events at full speed: ${ms(sum(r.resumeCpu) / CONTACTS)} = ${perExecution(r.resumeCpu, CONTACTS)}; ` +
      `events paced: ${ms(sum(r.pacedCpu) / LATENCY_CONTACTS)} = ${perExecution(r.pacedCpu, LATENCY_CONTACTS)}`,
  );
  console.log(
    `  worker by thread: ${Object.entries(r.workerThreads)
      .filter(([, v]) => v > 0)
      .sort(([, a], [, b]) => b - a)
      .map(([name, v]) => `${name} ${ms(v / all)}`)
      .join(', ')}`,
  );
  console.log(`  history of one execution: ${describeShape(r.shape)}`);
  console.log(
    `trigger phase: ${r.triggerPerSecond.toFixed(1)} executions started and parked in WAIT_FOR_EVENT per second (${all} executions)`,
  );
  console.log(
    `resume phase: ${r.completedPerSecond.toFixed(1)} executions completed per second, awaited events as fast as the API takes them (${CONTACTS}; ` +
      `target >= ${TARGETS.completedPerSecond}: ${verdict(r.completedPerSecond >= TARGETS.completedPerSecond)})`,
  );
  console.log(
    `event-to-resume latency, ${LATENCY_CONTACTS} awaited events at ${r.eventRate}/s: p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms ` +
      `(target p99 < ${TARGETS.p99Ms} ms: ${verdict(r.p99 < TARGETS.p99Ms)})`,
  );
  const mb = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([name, v]) => `${name} ${v.toFixed(0)}`)
      .join(', ');
  console.log(`memory (Pss, MB) before the load: ${mb(r.idleMb)}; peak: ${mb(r.peakMb)}`);
  console.log(`emails: ${JSON.stringify(r.emails)}; executions: ${JSON.stringify(r.ended)}`);
}

/** The stacks to measure, one pass each: npm start's (a revision's, then this checkout's), or the production shape's. */
interface Shape {
  bench: SendingBench;
  temporalPids: () => number[];
  passes: Array<{ label: string; stack: (deps: Deps) => Promise<AutomationStack> }>;
  close(): Promise<void>;
}

async function devShape(smtpUrl: string): Promise<Shape> {
  const bench = await sendingBench('postwire_bench_automation', { SMTP_URL: smtpUrl, EMAIL_RATE_PER_SECOND: '0' });
  await bench.orm.em.fork().execute(`delete from projects where name like 'postwire_bench_automation %'`);
  const trees: CodeTree[] = [...(BASELINE ? [await treeAt(BASELINE)] : []), thisCheckout()];
  return {
    bench,
    temporalPids: listenerOf(bench.config.TEMPORAL_ADDRESS),
    passes: trees.map((tree) => ({
      label: `npm start's stack, ${tree.label}`,
      stack: (deps) => startAutomationStack(tree, bench, deps, 'postwire_bench_automation'),
    })),
    close: async () => {
      await Promise.all(trees.map((t) => t.remove()));
      await bench.close();
    },
  };
}

async function clusterShape(smtpUrl: string): Promise<Shape> {
  const { cluster, bench } = await clusterBench(smtpUrl);
  return {
    bench,
    temporalPids: () => [cluster.temporalPid()].filter((p): p is number => p !== null),
    passes: [
      {
        label: `the production shape (npm run cluster: Temporal ${cluster.temporalVersion} on PostgreSQL, 2 APIs, 2 workers)`,
        stack: () => clusterAutomationStack(cluster, bench, 'postwire_bench_automation'),
      },
    ],
    close: () => bench.close(),
  };
}

async function main(): Promise<void> {
  const sink = await startSmtpSink();
  const shape = await (SHAPE === 'cluster' ? clusterShape(sink.url) : devShape(sink.url));
  const deps = await createDeps('bench', shape.bench.config);
  try {
    const floor = await calibrate(deps, shape.temporalPids);
    console.log(
      `Calibration, an empty workflow (${EMPTY_WORKFLOWS}, ${CONCURRENCY} at a time): ${floor.perSecond.toFixed(0)} completed/s; ` +
        `CPU per workflow: Temporal server ${ms(floor.temporalMs)}, SDK worker ${ms(floor.sdkMs)}; ${describeShape(floor.shape)}`,
    );
    const results: PassResult[] = [];
    for (const { label, stack } of shape.passes) {
      try {
        const running = await stack(deps);
        try {
          const result = await pass(label, running, shape.bench, deps);
          report(result);
          results.push(result);
        } finally {
          await running.close();
        }
      } catch (err) {
        console.log(`\n== ${label}\nthe pass failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const [before, after] = results;
    if (before && after) {
      const all = CONTACTS + LATENCY_CONTACTS;
      const cpu = (r: PassResult) => sum(r.cpu) / all;
      const net = (r: PassResult) => sum(netOf(r)) / all;
      console.log(
        `\nbefore -> after: CPU per execution ${ms(cpu(before))} -> ${ms(cpu(after))} (${(cpu(before) / cpu(after)).toFixed(2)}x less), ` +
          `net of idle ${ms(net(before))} -> ${ms(net(after))} (${(net(before) / net(after)).toFixed(2)}x less), ` +
          `completed/s ${before.completedPerSecond.toFixed(1)} -> ${after.completedPerSecond.toFixed(1)} (${(after.completedPerSecond / before.completedPerSecond).toFixed(2)}x), ` +
          `history events ${before.shape.events.toFixed(1)} -> ${after.shape.events.toFixed(1)}, workflow tasks ${before.shape.workflowTasks.toFixed(1)} -> ${after.shape.workflowTasks.toFixed(1)}`,
      );
    }
    console.log(`${loadNote()}`);
  } finally {
    await deps.temporal.client.connection.close();
    await closeDeps(deps);
    sink.stop();
    await shape.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
