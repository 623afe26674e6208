/**
 * Container health check: `node dist/src/main/healthcheck.js api|worker` exits 0 when healthy.
 * - api: GET /config on this container's port answers 200.
 * - worker: Temporal lists a recent poller from this host (the SDK's default identity is `<pid>@<hostname>`)
 *   on the worker's task queue, i.e. the worker in this container is connected and taking tasks.
 */
import os from 'node:os';
import { loadConfig, type Config } from '../config';

const TIMEOUT_MS = 5_000;
/** Pollers re-poll at least once a minute; older entries are workers that went away. */
const POLLER_FRESH_MS = 120_000;

async function api(config: Config): Promise<string> {
  const host = ['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST;
  const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}/config`, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`GET /config answered ${res.status}`);
  return `API answers on port ${config.PORT}`;
}

async function worker(config: Config): Promise<string> {
  // Loaded here so the API check stays light.
  const { Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS, connectTimeout: TIMEOUT_MS });
  try {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name: config.TEMPORAL_TASK_QUEUE, kind: 1 /* TASK_QUEUE_KIND_NORMAL */ },
      taskQueueType: 1 /* TASK_QUEUE_TYPE_WORKFLOW */,
    });
    const suffix = `@${os.hostname()}`;
    const mine = pollers.filter((p) => {
      const seconds = Number(p.lastAccessTime?.seconds ?? 0);
      return (p.identity ?? '').endsWith(suffix) && Date.now() - seconds * 1000 < POLLER_FRESH_MS;
    });
    if (mine.length === 0) throw new Error(`no poller from ${os.hostname()} on task queue ${config.TEMPORAL_TASK_QUEUE}`);
    return `worker ${mine.map((p) => p.identity).join(', ')} polls ${config.TEMPORAL_TASK_QUEUE}`;
  } finally {
    await connection.close();
  }
}

const checks = { api, worker } as const;

async function main(): Promise<string> {
  const kind = process.argv[2];
  if (kind !== 'api' && kind !== 'worker') throw new Error('usage: healthcheck api|worker');
  return checks[kind](loadConfig());
}

main().then(
  (line) => {
    console.log(`[healthcheck] ${line}`);
    process.exit(0);
  },
  (err: unknown) => {
    console.error(`[healthcheck] unhealthy: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
