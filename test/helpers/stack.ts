import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { initOrm } from '../../src/app/orm';
import { createMailer } from '../../src/mail/mailer';
import { createDnsResolver } from '../../src/dns/resolver';
import { createTemporalGateway, type TemporalGateway } from '../../src/temporal/client';
import { sessionsFor, type Deps } from '../../src/deps';
import { createApp, type App } from '../../src/app/app';
import type { RouteDef } from '../../src/http/route';
import { allRoutes } from '../../src/app/routes';
import { closeSimulator, warmSimulatorWhenReady } from '../../src/app/simulator';
import type { DeliveryPump } from '../../src/modules/emails/delivery/pump';
import { workerDatabaseUrl } from './database';
import { SmtpSink } from './smtp-sink';
import { DnsServer } from '../../scripts/lib/dns-server';
import { startPump } from './pump';
import { Simulator } from '../../src/modules/sandbox/simulator';
import type { RunningWorker } from './temporal';
import { startSmtpListeners, type SmtpListeners } from '../../src/app/smtp-listeners';

export interface TestStack {
  deps: Deps;
  app: App;
  /** A listening HTTP server for supertest: `request(stack.server)`. */
  server: Server;
  http: () => ReturnType<typeof request>;
  smtp: SmtpSink;
  dns: DnsServer;
  /** Set when started with `pump`. */
  pump: DeliveryPump | null;
  /** Set when started with `worker`. */
  worker: RunningWorker | null;
  /** The inbound SMTP server and the relay on free ports, when started with `smtpListeners`. */
  listeners: SmtpListeners | null;
  /**
   * Stops all the stack started, the latest first: pump, worker, the file's running workflows (with
   * `terminateWorkflows`), then server, mailer, database, DNS and SMTP. A step that fails does not keep the
   * others from running; its error is thrown at the end.
   */
  close(): Promise<void>;
}

/**
 * What the tenant factory and the HTTP helpers need of a stack: its API over HTTP and its DNS server. A TestStack
 * is one; so is each API process of a cluster (test/cluster/).
 */
export type ApiTarget = Pick<TestStack, 'http' | 'dns'>;

export interface StackOptions {
  /** Extra settings, as environment variables. */
  env?: Record<string, string>;
  /** A Temporal client of a test environment; by default the dev server that `npm test` runs. */
  temporal?: TemporalGateway;
  /** Routes mounted beside the API's own, for behaviour no real route exercises yet. */
  extraRoutes?: RouteDef[];
  /** Runs the delivery pump with the test settings of TEST_PUMP_OPTIONS. */
  pump?: boolean;
  /**
   * Starts a worker on the stack's task queue: `startWorker` of ./temporal, or `(deps) => startWorker(deps,
   * env.nativeConnection)` on a time-skipping environment. Passed in rather than imported here because
   * @temporalio/worker takes about a second to load, and most files run no worker.
   */
  worker?: (deps: Deps) => Promise<RunningWorker>;
  /** Runs the inbound SMTP server and the relay on loopback, on free ports (stack.listeners). */
  smtpListeners?: boolean;
  /** For stacks on the dev server: `close()` ends the workflows left running on the stack's task queue (often ones no worker polls). */
  terminateWorkflows?: boolean;
}

type Cleanup = () => Promise<unknown> | void;

/** Ends the workflows a file left running on the stack's task queue on the dev server, which outlives it. */
async function terminateRunningWorkflows(gateway: TemporalGateway): Promise<void> {
  const running = gateway.client.workflow.list({ query: `TaskQueue="${gateway.taskQueue}" AND ExecutionStatus="Running"` });
  for await (const wf of running) {
    // A workflow may finish between listing and terminating; that is the outcome wanted anyway.
    await gateway.client.workflow
      .getHandle(wf.workflowId, wf.runId)
      .terminate('test finished')
      .catch(() => undefined);
  }
  // The connection stays open: on a loaded machine a call of the test may still be between gRPC retries,
  // and closing the channel under it throws from a timer and fails the whole file. Jest ends the worker.
}

/** Runs every cleanup, the latest first, even when one fails. */
async function runCleanups(cleanups: Cleanup[]): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'closing the test stack failed');
}

/**
 * The real API over a real database, SMTP server and DNS server, all on loopback, with the pump and worker
 * asked for. When a part fails to start, the parts already started are stopped before the error is thrown,
 * so a file whose `beforeAll` failed has nothing left to close.
 */
export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const cleanups: Cleanup[] = [];
  try {
    const smtp = await SmtpSink.start();
    cleanups.push(() => smtp.close());
    const dns = await DnsServer.start();
    cleanups.push(() => dns.close());
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: await workerDatabaseUrl(),
      DATABASE_POOL_SIZE: '5',
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? 'localhost:7233',
      TEMPORAL_TASK_QUEUE: `test-${randomBytes(6).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SMTP_URL: smtp.url,
      DNS_SERVERS: dns.address,
      PUBLIC_URL: 'http://localhost:3000',
      HOST: '127.0.0.1',
      // Files that do not simulate start no test server; the API's start warms one only where a file asks.
      SIMULATION_WARM: 'false',
      ...(process.env.TEST_DASHBOARD_DIR ? { DASHBOARD_DIR: process.env.TEST_DASHBOARD_DIR } : {}),
      ...options.env,
    });
    const orm = await initOrm(config.DATABASE_URL, config.DATABASE_POOL_SIZE, config.STATEMENT_TIMEOUT_MS);
    cleanups.push(() => orm.close());
    const mailer = createMailer(config.SMTP_URL, config.SMTP_MAX_CONNECTIONS);
    cleanups.push(() => mailer.close());
    const deps: Deps = {
      config,
      logger: createLogger(config.LOG_LEVEL, 'test'),
      orm,
      temporal: options.temporal ?? createTemporalGateway(config),
      mailer,
      dns: createDnsResolver(config.DNS_SERVERS),
      sessions: sessionsFor(config),
    };
    const app = createApp(deps, [...allRoutes(deps), ...(options.extraRoutes ?? [])]);
    cleanups.push(() => closeSimulator(deps));
    const server = app.koa.listen(0, '127.0.0.1');
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    await new Promise((resolve) => server.once('listening', resolve));
    // As the API process does once it listens (src/main/api.ts).
    warmSimulatorWhenReady(deps, server);
    const listeners = options.smtpListeners ? await startSmtpListeners(deps, { inbound: 0, relay: 0 }) : null;
    if (listeners) cleanups.push(() => listeners.close());
    if (options.terminateWorkflows) cleanups.push(() => terminateRunningWorkflows(deps.temporal));
    const worker = options.worker ? await options.worker(deps) : null;
    if (worker) cleanups.push(() => worker.stop());
    // As in the worker: the simulator addresses are served where the pump runs (docs/sandbox.md).
    const simulator = options.pump && config.SANDBOX_ENABLED ? await Simulator.start(deps) : null;
    if (simulator) cleanups.push(() => simulator.close());
    const pump = options.pump ? await startPump(deps) : null;
    if (pump) cleanups.push(() => pump.stop());
    return {
      deps,
      app,
      server,
      http: () => request(server),
      smtp,
      dns,
      pump,
      worker,
      listeners,
      close: () => runCleanups(cleanups),
    };
  } catch (err) {
    // The start's error is the one worth reporting; a failure to stop what had started would only hide it.
    await runCleanups(cleanups).catch(() => undefined);
    throw err;
  }
}
