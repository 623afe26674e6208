/**
 * `npm run cluster`: the production shape of docker-compose.yml on this machine, without Docker (docs/cluster.md):
 * PostgreSQL, a Temporal server on it, two API processes and two workers, with production settings. Its state
 * is under .data/cluster and its ports from CLUSTER_PORT, apart from `npm start`'s. Ctrl-C stops all of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { configSchema } from '../src/config';
import { onStopSignals } from '../src/main/stop-signals';
import { clusterPorts } from './lib/cluster/layout';
import { startCluster, type Cluster } from './lib/cluster/cluster';
import { startMailCapture, type MailCapture } from './lib/mail-capture';
import { dataDir, shownPath } from './lib/paths';
import { ports } from './lib/ports';

const APIS = 2;
const WORKERS = 2;
const dir = path.join(dataDir, 'cluster');
const log = (line: string) => console.log(line);
let cluster: Cluster | null = null;
let capture: MailCapture | null = null;
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('\n[cluster] stopping…');
    await cluster?.stop();
    await capture?.stop();
  }
  process.exit(code);
}

/** The Postwire settings of this shell (LOG_LEVEL, SMTP_URL, ...): the cluster's processes get them as compose's .env gives them. */
function settingsOfShell(): Record<string, string> {
  const names = new Set(Object.keys(configSchema.shape));
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => names.has(e[0]) && e[1] !== undefined));
}

async function main() {
  onStopSignals(() => void shutdown(0));
  const layout = clusterPorts(ports.cluster, APIS);
  const shell = settingsOfShell();
  // As `npm start`: what the cluster sends lands in a local capture unless SMTP_URL names a server.
  if (!shell.SMTP_URL) capture = await startMailCapture(layout.mailCaptureSmtp, layout.mailCaptureWeb, [], path.join(dir, 'mail'));
  cluster = await startCluster({
    dir,
    base: ports.cluster,
    apis: APIS,
    workers: WORKERS,
    env: { ...(capture ? { SMTP_URL: `smtp://127.0.0.1:${capture.smtpPort}` } : {}), ...shell },
    log,
    onUnexpectedExit: (name, code) => {
      if (stopping) return;
      const file = path.join(dir, 'logs', `${name}.log`);
      log(`[cluster] ${name} exited with code ${code}; last lines of ${shownPath(file)}:`);
      log(fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n'));
      void shutdown(1);
    },
  });
  const c = cluster;
  const logs = shownPath(c.logDir);
  log(`
Postwire cluster is running: the production shape of docker-compose.yml (NODE_ENV=production)
${c.apis.map((api, i) => `  API ${i + 1}            ${api.url}   (pid ${api.service.pid}; OpenAPI: ${api.url}/openapi.json)`).join('\n')}
  Workers          ${c.workers.length} processes (pids ${c.workers.map((w) => w.pid).join(', ')}) on task queue ${c.taskQueue}
  Temporal gRPC    ${c.temporalAddress}, namespace ${c.namespace} (Temporal server ${c.temporalVersion} on PostgreSQL, pid ${c.temporalPid()})
  Temporal HTTP    http://127.0.0.1:${c.ports.temporalHttp}
  Temporal CLI     .tools/venv/bin/temporal --address ${c.temporalAddress} workflow list   (no Web UI: docs/cluster.md)
  PostgreSQL       ${c.databaseUrl.replace(/:[^:@/]+@/, ':***@')}  (Temporal's: temporal, temporal_visibility)
  Mail capture     ${capture ? `http://localhost:${capture.webPort}  (SMTP on 127.0.0.1:${capture.smtpPort})` : `off: SMTP_URL=${shell.SMTP_URL}`}
  Data             ${shownPath(dir)}
  Logs             ${logs}/{postgres,temporal,migrate,${c.apis.map((_, i) => `api-${i + 1}`).join(',')},${c.workers.map((_, i) => `worker-${i + 1}`).join(',')}}.log

Press Ctrl-C to stop.`);
}

main().catch((err) => {
  console.error(err);
  void shutdown(1);
});
