/**
 * Automations under load: BENCH_CONTACTS contacts (default 2,000) track the trigger event of a 4-step
 * workflow (SEND_EMAIL, WAIT_FOR_EVENT, CONDITION, SEND_EMAIL), then the awaited event. Prints:
 * - executions started and parked in WAIT_FOR_EVENT per second (trigger phase),
 * - executions completed per second once the awaited events come (target >= 100/s),
 * - event-to-resume latency p50/p99: from the awaited event's record to the workflow taking it (target p99 < 500 ms),
 *   with the awaited events as fast as the API takes them, or at BENCH_EVENT_RATE per second,
 * - the worker process's peak memory (target < 500 MB), and the emails the SMTP server received.
 *
 * It first measures how many workflow starts per second the Temporal server accepts at that moment, the
 * ceiling of everything else on a shared machine. One worker process runs src/main/worker.ts as deployed (Temporal worker, events outbox,
 * delivery pump; a workflow bundle built beforehand and WORKER_NODE_OPTIONS, as npm start and the image run it); the
 * API runs in this process, without its per-project rate limit, and the SMTP server in its own. Works in its
 * own database, `postwire_bench_automation`, on the server of `npm start` (or DATABASE_URL's), and the
 * Temporal dev server of `npm start` (TEMPORAL_ADDRESS).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { closeDeps, createDeps } from '../src/bootstrap';
import { createApp } from '../src/app/app';
import { writeWorkflowBundle } from '../src/temporal/workflow-bundle';
import { workerNodeOptions } from '../src/main/worker-heap';
import { cpuMsOf } from './lib/cpu';
import { loadNote, sendingBench, startSmtpSink } from './lib/sending';
import { inParallel as inParallelOf, temporalStartsPerSecond } from './lib/temporal-probe';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
/**
 * Awaited events tracked per second; 0 (the default) tracks them as fast as the API takes them. Faster than the
 * worker completes executions, the latency is mostly the wait in that queue; at a rate the stack keeps up with
 * it is the event's own way through the outbox, the signal and the workflow.
 */
const EVENT_RATE = Number(process.env.BENCH_EVENT_RATE ?? 0);
/** Runs `work` for 0..n-1 with at most CONCURRENCY at a time. */
const inParallel = (n: number, work: (i: number) => Promise<void>) => inParallelOf(n, CONCURRENCY, work);
const TARGETS = { completedPerSecond: 100, p99Ms: 500, memoryMb: 500 };

/** src/main/worker.ts in a process of its own; resolves once it polls. */
async function startWorker(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_WORKER_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
      '--import',
      'tsx',
      path.join(__dirname, '..', 'src', 'main', 'worker.ts'),
    ],
    {
      env: { ...process.env, ...env, NODE_OPTIONS: workerNodeOptions(process.env.NODE_OPTIONS), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the worker exited with code ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"worker running"')) resolve();
    });
  });
  /** Resident memory in MB: now, and the peak so far. */
  const memory = () => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  };
  /** CPU milliseconds the worker process has used so far: a figure the machine's other load does not skew. */
  const cpuMs = () => cpuMsOf([child.pid!]).get(child.pid!)!;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };
  return { memory, cpuMs, stop };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const sink = await startSmtpSink();
  const taskQueue = `bench-automation-${randomBytes(4).toString('hex')}`;
  const bench = await sendingBench('postwire_bench_automation', {
    SMTP_URL: sink.url,
    EMAIL_RATE_PER_SECOND: '0',
    API_RATE_LIMIT_PER_MINUTE: '0',
    TEMPORAL_TASK_QUEUE: taskQueue,
  });
  const deps = await createDeps('bench', bench.config);
  const server: Server = createApp(deps).koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${bench.secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown> & { id: string };
  };
  // Built once beforehand, as npm start and the image do.
  const bundle = path.join(os.tmpdir(), `postwire-bench-workflows-${process.pid}.js`);
  await writeWorkflowBundle(bundle);
  const worker = await startWorker({ ...bench.env, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_WORKFLOW_BUNDLE: bundle });
  const db = () => bench.orm.em.fork();
  try {
    await db().execute(`delete from projects where name like 'postwire_bench_automation %' and id <> ?`, [bench.projectId]);
    const template = await api('POST', '/templates', {
      name: 'Welcome',
      subject: 'Welcome {{ email }}',
      body: '<p>Hello {{ email }}</p>',
      from: bench.from,
      type: 'TRANSACTIONAL',
    });
    const workflow = await api('POST', '/workflows', { name: 'Onboarding', eventName: 'signup' });
    const step = async (type: string, config: object) => (await api('POST', `/workflows/${workflow.id}/steps`, { type, config })).id;
    const welcome = await step('SEND_EMAIL', { templateId: template.id });
    const wait = await step('WAIT_FOR_EVENT', { eventName: 'activated', timeout: 86_400 });
    const check = await step('CONDITION', {
      logic: 'AND',
      groups: [{ filters: [{ field: 'event.plan', operator: 'equals', value: 'pro' }] }],
    });
    const thanks = await step('SEND_EMAIL', { templateId: template.id });
    await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: welcome, toStepId: wait });
    await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: wait, toStepId: check });
    await api('POST', `/workflows/${workflow.id}/transitions`, { fromStepId: check, toStepId: thanks, branch: 'yes' });
    await api('PATCH', `/workflows/${workflow.id}`, { enabled: true });

    const counts = async () => {
      const rows = await db().execute<Array<{ status: string; n: number }>>(
        'select status, count(*)::int as n from automation_executions where automation_id = ? group by status',
        [workflow.id],
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    };
    const until = async (done: (c: Record<string, number>) => boolean) => {
      for (;;) {
        const c = await counts();
        if (done(c)) return c;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const email = (i: number) => `member-${i}@bench.test`;

    console.log(
      `Temporal server: ${(await temporalStartsPerSecond(deps.temporal)).toFixed(0)} workflow starts/s of an empty workflow right now`,
    );
    const idle = worker.memory();
    const cpuBefore = worker.cpuMs();
    const triggerStart = performance.now();
    await inParallel(CONTACTS, async (i) => void (await api('POST', '/events/track', { email: email(i), event: 'signup' })));
    await until((c) => (c.WAITING ?? 0) >= CONTACTS);
    const triggerSeconds = (performance.now() - triggerStart) / 1000;
    console.log(
      `trigger phase: ${CONTACTS} signups tracked, ${CONTACTS} executions sent their first email and wait, in ${triggerSeconds.toFixed(1)} s ` +
        `(${(CONTACTS / triggerSeconds).toFixed(0)} executions/s)`,
    );

    const resumeStart = performance.now();
    await inParallel(CONTACTS, async (i) => {
      const due = resumeStart + (EVENT_RATE ? (i * 1000) / EVENT_RATE : 0);
      if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
      await api('POST', '/events/track', { email: email(i), event: 'activated', data: { plan: 'pro' } });
    });
    await until((c) => (c.COMPLETED ?? 0) >= CONTACTS);
    const resumeSeconds = (performance.now() - resumeStart) / 1000;
    const completedPerSecond = CONTACTS / resumeSeconds;

    // Latency per execution: from the awaited event's record to the moment the workflow took it (its step's end).
    const latencies = (
      await db().execute<Array<{ ms: number }>>(
        `select extract(epoch from ((x.history -> 1 ->> 'completedAt')::timestamptz - e.created_at)) * 1000 as ms
         from automation_executions x join events e on e.id = (x.history -> 1 -> 'output' ->> 'eventId')::uuid
         where x.automation_id = ?`,
        [workflow.id],
      )
    )
      .map((r) => Number(r.ms))
      .sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const memory = worker.memory();
    const cpuPerExecution = (worker.cpuMs() - cpuBefore) / CONTACTS;
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `resume phase: ${CONTACTS} awaited events tracked${EVENT_RATE ? ` at ${EVENT_RATE}/s` : ''}, every execution COMPLETED (CONDITION, second email) in ${resumeSeconds.toFixed(1)} s: ` +
        `${completedPerSecond.toFixed(0)} executions completed/s (target >= ${TARGETS.completedPerSecond}: ${verdict(completedPerSecond >= TARGETS.completedPerSecond)})`,
    );
    console.log(
      `event-to-resume latency over ${latencies.length} executions: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${latencies[latencies.length - 1]!.toFixed(0)} ms ` +
        `(target p99 < ${TARGETS.p99Ms} ms: ${verdict(p99 < TARGETS.p99Ms)})`,
    );
    console.log(
      `worker process memory: peak ${memory.peakMb.toFixed(0)} MB, now ${memory.rssMb.toFixed(0)} MB, ${idle.rssMb.toFixed(0)} MB before the load ` +
        `(target < ${TARGETS.memoryMb} MB: ${verdict(memory.peakMb < TARGETS.memoryMb)})`,
    );
    console.log(
      `worker CPU: ${cpuPerExecution.toFixed(1)} ms per execution (both phases, outbox and delivery included), ` +
        `${(1000 / cpuPerExecution).toFixed(0)} executions per second of one core`,
    );
    const emails = await db().execute<Array<{ status: string; n: number }>>(
      `select status, count(*)::int as n from emails where project_id = ? group by status`,
      [bench.projectId],
    );
    console.log(`  emails: ${JSON.stringify(Object.fromEntries(emails.map((r) => [r.status, r.n])))}; ${loadNote()}`);
  } finally {
    await worker.stop();
    rmSync(bundle, { force: true });
    await new Promise((resolve) => server.close(resolve));
    for await (const wf of deps.temporal.client.workflow.list({ query: `TaskQueue="${taskQueue}" AND ExecutionStatus="Running"` })) {
      await deps.temporal.client.workflow
        .getHandle(wf.workflowId, wf.runId)
        .terminate('benchmark finished')
        .catch(() => undefined);
    }
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
