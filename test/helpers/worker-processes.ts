import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { writeWorkflowBundle } from '../../src/temporal/workflow-bundle';
import { createInterface } from 'node:readline';
import type { Config } from '../../src/config';

const script = path.join(__dirname, 'worker-process.ts');

export interface WorkerProcess {
  pid: number;
  /** SIGKILL: the process dies at once, with whatever it was doing. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds. */
  stop(): Promise<void>;
}

/** The settings a worker process needs to share a stack's (or a benchmark's) database, Temporal and SMTP. */
export function workerEnv(config: Config, taskQueue: string): Record<string, string> {
  return {
    DATABASE_URL: config.DATABASE_URL,
    TEMPORAL_ADDRESS: config.TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: config.TEMPORAL_NAMESPACE,
    TEMPORAL_TASK_QUEUE: taskQueue,
    SMTP_URL: config.SMTP_URL,
    DNS_SERVERS: config.DNS_SERVERS.join(','),
    JWT_SECRET: config.JWT_SECRET,
    ENCRYPTION_KEY: config.ENCRYPTION_KEY,
    PUBLIC_URL: config.PUBLIC_URL,
    LOG_LEVEL: 'error',
  };
}

/** Bundles the workflows once into a file, for WORKER_WORKFLOW_BUNDLE: every worker process started with it skips that step. */
export async function bundleWorkflows(): Promise<string> {
  const file = path.join(os.tmpdir(), `postwire-workflows-${process.pid}-${Date.now()}.js`);
  await writeWorkflowBundle(file);
  return file;
}

export interface WorkerProcessOptions {
  /** Node flags, e.g. --cpu-prof (NODE_OPTIONS may not carry it). */
  nodeArgs?: readonly string[];
  /** The worker-process.ts to run: another copy of the code's (a benchmark's baseline revision); this one by default. */
  script?: string;
  /** How long a stop waits for the process to end by itself before it kills it: 5 s by default. */
  stopGraceMs?: number;
}

/** Starts test/helpers/worker-process.ts and resolves once it polls. */
export async function startWorkerProcess(env: Record<string, string>, options: WorkerProcessOptions = {}): Promise<WorkerProcess> {
  // Node itself with tsx's loader, not the tsx CLI: a SIGKILL must reach the process that does the work.
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script ?? script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker process exited with code ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'worker ready') resolve();
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    pid: child.pid!,
    kill: () => signal('SIGKILL'),
    stop: async () => {
      const force = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs ?? 5_000);
      await signal('SIGTERM');
      clearTimeout(force);
    },
  };
}
