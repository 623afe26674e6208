import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** BENCH_WORKER_NODE_OPTIONS: Node flags for a benchmark's worker processes (e.g. --cpu-prof, which NODE_OPTIONS may not carry). */
export const benchWorkerNodeFlags = (): string[] => (process.env.BENCH_WORKER_NODE_OPTIONS ?? '').split(' ').filter(Boolean);

export interface NodeProcess {
  pid: number;
  stop(): Promise<void>;
}

/** A process started with Node and tsx's loader from `cwd`; resolves once a line of its output matches `ready`. */
export async function startNode(
  script: string,
  cwd: string,
  env: Record<string, string>,
  ready: (line: string) => boolean,
  nodeFlags: string[] = [],
): Promise<NodeProcess> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (ready(line)) resolve();
    });
  });
  return {
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** Runs `work` for 0..n-1 with at most `concurrency` at a time. */
export async function inParallel(n: number, work: (i: number) => Promise<void>, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** A JSON API client with a secret key. */
export const apiClient =
  (base: string, secret: string) =>
  async (method: string, route: string, body?: unknown): Promise<Record<string, unknown> & { id: string }> => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown> & { id: string };
  };

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
