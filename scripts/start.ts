/**
 * `npm start`: PostgreSQL, the Temporal dev server with its Web UI, a local mail capture, migrations,
 * then the API and the worker. Ctrl-C stops everything this started; data stays under .data/ (or POSTWIRE_DATA_DIR).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir, root, shownDataDir, temporalTestServer, tsx } from './lib/paths';
import { ports } from './lib/ports';
import { ensureDatabase, ensurePostgres } from './lib/postgres';
import { ensureTemporal } from './lib/temporal';
import { startMailCapture } from './lib/mail-capture';
import { startWebhookCapture } from './lib/webhook-capture';
import { devSecrets } from './lib/secrets';
import { withLock } from './lib/lock';
import { waitForPort } from './lib/net';
import { ensureWorkflowBundle } from './lib/workflow-bundle';
import { onStopSignals } from '../src/main/stop-signals';
import { workerNodeOptions } from '../src/main/worker-heap';
import { developmentAids, developmentEnv } from './lib/development';
import { startDevDns } from './lib/dev-dns';
import { describeDevAccount, ensureDevAccount, verificationToken } from './lib/dev-account';
import { ensureDashboard, startDashboardDevServer } from './lib/dashboard';

const started = Date.now();
const log = (line: string) => console.log(line);
const stops: Array<() => Promise<void>> = [];
const children: ChildProcess[] = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log('\n[postwire] stopping…');
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((c) => c.exitCode === null).map((c) => new Promise((r) => c.once('exit', r))));
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
  process.exit(code);
}

function spawnService(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const logFile = path.join(dataDir, 'logs', `${name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn(tsx, [script], { cwd: root, env, stdio: ['ignore', out, out] });
  child.once('exit', (code) => {
    if (stopping) return;
    log(`[postwire] ${name} exited with code ${code}; last lines of ${shownDataDir('logs', `${name}.log`)}:`);
    log(fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n'));
    void shutdown(1);
  });
  children.push(child);
  return child;
}

async function main() {
  onStopSignals(() => void shutdown(0));

  const { pg, temporal } = await withLock('services', async () => {
    const pg = await ensurePostgres(ports.postgres, log);
    const temporal = await ensureTemporal(ports.temporal, ports.temporalUi, log);
    return { pg, temporal };
  });
  stops.push(
    () => pg.stop(),
    () => temporal.stop(),
  );
  void temporal.exited.then((code) => {
    if (stopping) return;
    log(`[postwire] the Temporal dev server exited with code ${code}`);
    void shutdown(1);
  });
  const databaseUrl = process.env.DATABASE_URL ?? (await ensureDatabase(pg.adminUrl, 'postwire'));

  // docs/sandbox.md: simulator addresses, and a DNS server publishing the records of the domains added.
  const aids = developmentAids(process.env);
  const devDns = aids.devDns ? await startDevDns(ports.dns, databaseUrl) : null;
  if (devDns) stops.push(() => devDns.stop());

  const dnsServers = (process.env.DNS_SERVERS ?? devDns?.address ?? '').split(',').filter(Boolean);
  const capture = process.env.SMTP_URL ? null : await startMailCapture(ports.smtp, ports.mailWeb, dnsServers);
  if (capture) stops.push(() => capture.stop());
  // docs/webhooks.md "Trying webhooks locally": a receiver on loopback, which development allows (developmentEnv).
  const hooks = aids.sandbox ? await startWebhookCapture(ports.webhookCapture) : null;
  if (hooks) stops.push(() => hooks.stop());

  // docs/smtp.md: the API serves inbound mail and the relay on these ports.
  const inboundSmtp = Number(process.env.INBOUND_SMTP_PORT || 2525);
  const relaySmtp = Number(process.env.RELAY_SMTP_PORT || 2587);
  const env: NodeJS.ProcessEnv = {
    ...devSecrets(),
    PUBLIC_URL: `http://localhost:${ports.api}`,
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    UPLOADS_DIR: path.join(dataDir, 'uploads'),
    TEMPORAL_UI_URL: temporal.uiUrl,
    ...(capture ? { MAIL_CAPTURE_URL: `http://localhost:${ports.mailWeb}` } : {}),
    ...(hooks ? { WEBHOOK_CAPTURE_URL: hooks.url } : {}),
    ...developmentEnv(aids, devDns?.address ?? null),
    ...process.env,
    PORT: String(ports.api),
    INBOUND_SMTP_PORT: String(inboundSmtp),
    RELAY_SMTP_PORT: String(relaySmtp),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
  };

  const migrated = spawnSync(tsx, ['src/main/migrate.ts'], { cwd: root, env, stdio: 'inherit' });
  if (migrated.status !== 0) return shutdown(1);

  const workflowBundle = await ensureWorkflowBundle(log);
  // The API serves the built app at /app; the development server beside it reloads on every edit.
  const dashboard = ensureDashboard(log);
  spawnService('worker', 'src/main/worker.ts', {
    ...env,
    WORKER_WORKFLOW_BUNDLE: workflowBundle,
    NODE_OPTIONS: workerNodeOptions(env.NODE_OPTIONS),
  });
  // The API runs simulations on time-skipping test servers with the same bundle (docs/simulation.md).
  spawnService('api', 'src/main/api.ts', {
    WORKER_WORKFLOW_BUNDLE: workflowBundle,
    TEMPORAL_TEST_SERVER_PATH: temporalTestServer,
    DASHBOARD_DIR: dashboard,
    ...env,
  });
  await waitForPort(ports.api, 'API');
  await waitForPort(inboundSmtp, 'inbound SMTP server');
  await waitForPort(relaySmtp, 'SMTP relay');
  const apiUrl = `http://localhost:${ports.api}`;
  const dashboardDev = startDashboardDevServer(ports.dashboardDev, apiUrl, log);
  children.push(dashboardDev);
  await waitForPort(ports.dashboardDev, 'dashboard development server');
  // The account's verification mail lands in the capture; its link verifies the account as a click would.
  const inbox = capture ? (to: string) => capture.waitFor((raw) => raw.includes(to) && verificationToken(raw) !== null) : undefined;
  const account = aids.sandbox && devDns ? await ensureDevAccount(apiUrl, { inbox, webhookCaptureUrl: hooks?.url }) : null;
  if (account?.webhook) hooks?.addSecret(account.webhook.secret);

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(`
Postwire is running (ready in ${seconds}s)
  Dashboard        http://localhost:${ports.api}/app/   (hot reload while editing src/dashboard: http://localhost:${ports.dashboardDev}/app/)
  API              http://localhost:${ports.api}        (OpenAPI: http://localhost:${ports.api}/openapi.json)
  Temporal Web UI  ${temporal.uiUrl}
  Temporal gRPC    ${temporal.address}
  PostgreSQL       ${databaseUrl.replace(/:[^:@/]+@/, ':***@')}
  Inbound SMTP     127.0.0.1:${inboundSmtp}  (mail for the domains with inbound on: GET /inbound; docs/smtp.md)
  SMTP relay       127.0.0.1:${relaySmtp}  (AUTH with any user name and the secret key; docs/smtp.md)
  Mail capture     ${capture ? `http://localhost:${ports.mailWeb}  (SMTP on 127.0.0.1:${ports.smtp})` : `off: SMTP_URL=${env.SMTP_URL}`}
  Webhook capture  ${hooks ? `http://localhost:${hooks.port}  (point endpoints at ${hooks.url})` : 'off'}
  Development DNS  ${devDns ? `${devDns.address} (UDP; records of the domains added to projects)` : 'off'}
  Sandbox          ${aids.sandbox ? 'on: mail to @simulator.postwire.test is simulated (docs/sandbox.md)' : 'off'}
  Logs             ${shownDataDir('logs', 'api.log')}, ${shownDataDir('logs', 'worker.log')}
${account ? `\n${describeDevAccount(apiUrl, account, { inbound: inboundSmtp, relay: relaySmtp })}\n` : ''}
Press Ctrl-C to stop.`);
}

main().catch((err) => {
  console.error(err);
  void shutdown(1);
});
