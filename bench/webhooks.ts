/**
 * Outbound webhooks under load: BENCH_RATE events per second (default 1,000) recorded for BENCH_SECONDS
 * (default 60), fanned out to 3 endpoints on loopback. Prints, per endpoint, whether every event arrived and
 * in recorded order, the duplicates, p50 / p99 from record to delivery (target p99 < 1 s), and the CPU per
 * delivery of the worker process and of its PostgreSQL connections.
 *
 * Then, unless BENCH_RESILIENCE=0, a second run of BENCH_SECONDS / 2 during which one receiver answers 503
 * from 20% to 50% of the run and the worker is killed (SIGKILL) at 60% and started again: every event must
 * still arrive at every endpoint, in order; duplicates are counted.
 *
 * Events are recorded the way the service records them (recordEvents, BENCH_BATCH per transaction, default
 * 10) by this process, so the figures are those of delivery, not of an API. One worker process runs
 * src/main/worker.ts as deployed (events outbox, Temporal worker, housekeeping) on the Temporal dev server of
 * `npm start` (TEMPORAL_ADDRESS); own database `postwire_bench_webhooks`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { closeDeps, createDeps } from '../src/bootstrap';
import { newId } from '../src/db/columns';
import { Contact } from '../src/modules/contacts/entities';
import { recordEvents } from '../src/modules/outbox/record';
import { createEndpoint } from '../src/modules/webhooks/service';
import { writeWorkflowBundle } from '../src/temporal/workflow-bundle';
import { BackendCpu } from './lib/backend-cpu';
import { cpuMsOf } from './lib/cpu';
import { loadNote, sendingBench } from './lib/sending';

const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const RESILIENCE = process.env.BENCH_RESILIENCE !== '0';
const ENDPOINTS = 3;
const CONTACTS = 100;
const WORKER_APP = 'postwire-bench-webhooks-worker';

/** A receiver on loopback: the first arrival time of each webhook-id, in arrival order, and the repeats. */
class Receiver {
  readonly firstSeen = new Map<string, number>();
  readonly order: string[] = [];
  duplicates = 0;
  down = false;
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (this.down) {
          res.writeHead(503).end();
          return;
        }
        const id = String(req.headers['webhook-id']);
        if (this.firstSeen.has(id)) this.duplicates++;
        else {
          this.firstSeen.set(id, Date.now());
          this.order.push(id);
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  reset(): void {
    this.firstSeen.clear();
    this.order.length = 0;
    this.duplicates = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** src/main/worker.ts in a process of its own; resolves once it polls. */
async function startWorker(env: Record<string, string>): Promise<{ child: ChildProcess; kill(): Promise<void>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'src', 'main', 'worker.ts')], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info', PGAPPNAME: WORKER_APP },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the worker exited with code ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"worker running"')) resolve();
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return { child, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const taskQueue = `bench-webhooks-${randomBytes(4).toString('hex')}`;
  const bench = await sendingBench('postwire_bench_webhooks', { WEBHOOK_ALLOW_PRIVATE: 'true', TEMPORAL_TASK_QUEUE: taskQueue });
  const deps = await createDeps('bench', bench.config);
  const bundle = path.join(os.tmpdir(), `postwire-bench-workflows-${process.pid}.js`);
  await writeWorkflowBundle(bundle);
  const workerSettings = { ...bench.env, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_WORKFLOW_BUNDLE: bundle };
  let worker = await startWorker(workerSettings);
  const receivers = Array.from({ length: ENDPOINTS }, () => new Receiver());
  const db = () => bench.orm.em.fork();
  try {
    for (const r of receivers) await r.start();
    await db().execute(`delete from projects where name like 'postwire_bench_webhooks %' and id <> ?`, [bench.projectId]);
    const em = db();
    const contacts = Array.from({ length: CONTACTS }, (_, i) =>
      em.create(Contact, {
        id: newId(),
        projectId: bench.projectId,
        email: `c${i}-${randomBytes(3).toString('hex')}@bench.test`,
        subscribed: true,
        data: {},
      }),
    );
    await em.flush();
    for (const r of receivers) await createEndpoint(deps, db(), bench.projectId, { url: r.url, events: [], enabled: true });

    /** Records RATE events/s for `seconds`, BATCH per transaction, calling `at(fraction)` as the run goes. */
    const record = async (seconds: number, at: (fraction: number) => Promise<void> = async () => undefined) => {
      const total = RATE * seconds;
      const start = performance.now();
      let behind = 0;
      for (let n = 0; n < total; n += BATCH) {
        const due = start + (n * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        else behind = Math.max(behind, -wait);
        const tx = db();
        recordEvents(
          tx,
          Array.from({ length: Math.min(BATCH, total - n) }, (_, i) => ({
            projectId: bench.projectId,
            contactId: contacts[(n + i) % CONTACTS]!.id,
            name: `bench.${(n + i) % 5}`,
            data: { n: n + i },
          })),
        );
        await tx.flush();
        await at((n + BATCH) / total);
      }
      return { total, seconds: (performance.now() - start) / 1000, behindMs: behind };
    };

    const report = async (label: string, since: Date, recorded: { total: number; seconds: number; behindMs: number }) => {
      const events = await db().execute<Array<{ id: string; ms: number }>>(
        `select id, extract(epoch from created_at) * 1000 as ms from events where project_id = ? and created_at >= ? order by txid, seq`,
        [bench.projectId, since],
      );
      const deadline = Date.now() + 10 * 60_000;
      while (receivers.some((r) => events.some((e) => !r.firstSeen.has(e.id))) && Date.now() < deadline) await sleep(500);
      console.log(
        `${label}: ${recorded.total} events recorded in ${recorded.seconds.toFixed(1)} s (${(recorded.total / recorded.seconds).toFixed(0)}/s, at most ${recorded.behindMs.toFixed(0)} ms behind schedule)`,
      );
      for (const [i, r] of receivers.entries()) {
        const missing = events.filter((e) => !r.firstSeen.has(e.id)).length;
        const inOrder = r.order.length === events.length && r.order.every((id, k) => id === events[k]!.id);
        const latencies = events
          .filter((e) => r.firstSeen.has(e.id))
          .map((e) => r.firstSeen.get(e.id)! - Number(e.ms))
          .sort((a, b) => a - b);
        console.log(
          `  endpoint ${i + 1}: ${events.length - missing}/${events.length} delivered, ${inOrder ? 'in recorded order' : 'OUT OF ORDER'}, ${r.duplicates} duplicates; ` +
            `record to delivery p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(0)} ms`,
        );
      }
      return events.length;
    };

    // Steady load.
    const cpu = new BackendCpu(bench.orm.em, WORKER_APP);
    await cpu.start();
    const workerBefore = cpuMsOf([worker.child.pid!]).get(worker.child.pid!)!;
    const since = new Date(Date.now() - 1_000);
    const steady = await record(SECONDS);
    const events = await report(`steady, ${RATE}/s for ${SECONDS} s`, since, steady);
    const workerMs = cpuMsOf([worker.child.pid!]).get(worker.child.pid!)! - workerBefore;
    const pgMs = await cpu.elapsedMs();
    const deliveries = events * ENDPOINTS;
    console.log(
      `  CPU per delivery: worker ${(workerMs / deliveries).toFixed(3)} ms (one core ~${Math.round(deliveries / (workerMs / 1000))} deliveries/s), ` +
        `its PostgreSQL connections ${(pgMs / deliveries).toFixed(3)} ms; ${loadNote()}`,
    );

    if (RESILIENCE) {
      for (const r of receivers) r.reset();
      const target = receivers[1]!;
      let killed = false;
      const since2 = new Date();
      const seconds = Math.max(1, Math.round(SECONDS / 2));
      const run = await record(seconds, async (f) => {
        target.down = f >= 0.2 && f < 0.5;
        if (f >= 0.6 && !killed) {
          killed = true;
          await worker.kill();
          worker = await startWorker(workerSettings);
        }
      });
      target.down = false;
      await report(`receiver 2 down from 20% to 50% of the run, worker killed at 60%, ${RATE}/s for ${seconds} s`, since2, run);
    }
  } finally {
    await worker.stop();
    rmSync(bundle, { force: true });
    for await (const wf of deps.temporal.client.workflow.list({ query: `TaskQueue="${taskQueue}" AND ExecutionStatus="Running"` })) {
      await deps.temporal.client.workflow
        .getHandle(wf.workflowId, wf.runId)
        .terminate('benchmark finished')
        .catch(() => undefined);
    }
    for (const r of receivers) await r.close();
    await deps.temporal.client.connection.close();
    await closeDeps(deps);
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
