/**
 * The Temporal server of a cluster, as docker-compose.yml runs it: the release it names, built from source
 * (scripts/build-temporal-server.sh), its schema and namespace set up by the same deploy/temporal/ scripts, and
 * the server configured by the same environment variables, read by the configuration template built into it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { root, toolsBin } from '../paths';
import { waitForPort } from '../net';
import type { ClusterPorts } from './layout';
import { baseEnv } from './service';

export interface TemporalBuild {
  version: string;
  server: string;
  sqlTool: string;
  /** The release's schema files, laid out as in the admin-tools image's /etc/temporal/schema. */
  schemaDir: string;
}

/** Builds the server when it is not built yet (minutes the first time; nothing afterwards). */
export function ensureTemporalServerBuild(): TemporalBuild {
  const built = spawnSync('bash', [path.join(root, 'scripts', 'build-temporal-server.sh')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const dir = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status !== 0 || !dir) throw new Error('building the Temporal server failed (scripts/build-temporal-server.sh)');
  const full = path.resolve(root, dir);
  return {
    version: fs.readFileSync(path.join(full, '.complete'), 'utf8').split(' ')[0]!,
    server: path.join(full, 'temporal-server'),
    sqlTool: path.join(full, 'temporal-sql-tool'),
    schemaDir: path.join(full, 'schema'),
  };
}

export interface PostgresLogin {
  port: number;
  user: string;
  password: string;
}

/** Runs one of deploy/temporal/'s scripts, its output appended to `logFile`; throws with that output when it fails. */
async function runDeployScript(script: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const child = spawn('sh', [path.join(root, 'deploy', 'temporal', script)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  fs.appendFileSync(logFile, output);
  if (code !== 0) throw new Error(`deploy/temporal/${script} failed (exit ${code}):\n${output}`);
}

/** Temporal's two databases and their schemas (the compose file's `temporal-schema`); a no-op when they are up to date. */
export function setupTemporalSchema(build: TemporalBuild, pg: PostgresLogin, logFile: string): Promise<void> {
  return runDeployScript(
    'setup-schema.sh',
    {
      ...baseEnv(),
      PATH: `${path.dirname(build.sqlTool)}${path.delimiter}${process.env.PATH}`,
      SQL_HOST: '127.0.0.1',
      SQL_PORT: String(pg.port),
      SQL_USER: pg.user,
      SQL_PASSWORD: pg.password,
      TEMPORAL_SCHEMA_DIR: build.schemaDir,
    },
    logFile,
  );
}

/** The namespace and Postwire's search attributes (the compose file's `temporal-setup`), with the pinned Temporal CLI. */
export function setupNamespace(address: string, namespace: string, logFile: string): Promise<void> {
  return runDeployScript(
    'setup-namespace.sh',
    {
      ...baseEnv(),
      PATH: `${toolsBin}${path.delimiter}${process.env.PATH}`,
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
    },
    logFile,
  );
}

export interface TemporalServerOptions {
  build: TemporalBuild;
  pg: PostgresLogin;
  ports: ClusterPorts;
  /** Fixed when the cluster is first created (docker-compose.yml's TEMPORAL_HISTORY_SHARDS, 128 by default). */
  historyShards: number;
  logFile: string;
}

/** The environment docker-compose.yml gives the `temporal` service, on loopback and the cluster's ports. */
function serverEnv({ pg, ports, historyShards }: TemporalServerOptions): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    DB: 'postgres12',
    DB_PORT: String(pg.port),
    POSTGRES_SEEDS: '127.0.0.1',
    POSTGRES_USER: pg.user,
    POSTGRES_PWD: pg.password,
    DBNAME: 'temporal',
    VISIBILITY_DBNAME: 'temporal_visibility',
    BIND_ON_IP: '127.0.0.1',
    NUM_HISTORY_SHARDS: String(historyShards),
    DYNAMIC_CONFIG_FILE_PATH: path.join(root, 'deploy', 'temporal', 'dynamicconfig.yaml'),
    FRONTEND_GRPC_PORT: String(ports.temporal),
    FRONTEND_HTTP_PORT: String(ports.temporalHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.membership.frontend),
    HISTORY_GRPC_PORT: String(ports.temporalHistory),
    HISTORY_MEMBERSHIP_PORT: String(ports.membership.history),
    MATCHING_GRPC_PORT: String(ports.temporalMatching),
    MATCHING_MEMBERSHIP_PORT: String(ports.membership.matching),
    WORKER_GRPC_PORT: String(ports.temporalWorker),
    WORKER_MEMBERSHIP_PORT: String(ports.membership.worker),
  };
}

/** Resolves once the frontend answers for `namespace`: the history shards are owned and requests go through. */
export async function waitForNamespace(address: string, namespace: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the Temporal server at ${address} did not serve namespace ${namespace}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** The server process; `stop` and `start` again keep its data, so a restart is the two in turn. */
export class TemporalServer {
  private child: ChildProcess | null = null;
  private exit: Promise<void> = Promise.resolve();
  /** Set while the server runs unstopped: called if it exits by itself. */
  onUnexpectedExit: ((code: number | null) => void) | null = null;

  constructor(private readonly options: TemporalServerOptions) {}

  get address(): string {
    return `127.0.0.1:${this.options.ports.temporal}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async start(): Promise<void> {
    const out = fs.openSync(this.options.logFile, 'a');
    const child = spawn(this.options.build.server, ['start'], { cwd: root, env: serverEnv(this.options), stdio: ['ignore', out, out] });
    fs.closeSync(out);
    this.child = child;
    this.exit = new Promise((resolve) =>
      child.once('exit', (code) => {
        if (this.child === child) {
          this.child = null;
          this.onUnexpectedExit?.(code);
        }
        resolve();
      }),
    );
    await Promise.race([
      waitForPort(this.options.ports.temporal, 'Temporal server', 120_000),
      this.exit.then(() => {
        throw new Error(`the Temporal server exited at start; see ${this.options.logFile}`);
      }),
    ]);
  }

  /** SIGTERM (the server drains, as `docker compose stop` asks it to), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.kill('SIGTERM');
    await this.exit;
    clearTimeout(force);
  }
}
