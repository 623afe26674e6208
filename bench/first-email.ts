/**
 * How long a new developer waits for a first email, by the README's steps: `npm start` on an empty data
 * directory until it prints the development account, then the printed first-email `curl` sent to an ordinary
 * address (README step 2) until the mail capture's page lists it; then the printed `curl` as it is, to
 * delivered@simulator.postwire.test, until the printed activity `curl` shows it DELIVERED. Then a second
 * `npm start` on the same data directory, measured the same way. Each start runs beside anything else (its
 * own data folder and free ports: scripts/lib/isolated-start.ts) and is stopped as Ctrl-C would stop it; the
 * folder is removed at the end. CPU is that of npm start's whole process tree (PostgreSQL, Temporal, API,
 * worker, the ones that ended included) from its start to the first email in the capture.
 * npm packages and the Temporal CLI are installed already (ensure-deps finds them); their first install is
 * not measured.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePorts, printedCurls, printedField, startIsolated } from '../scripts/lib/isolated-start';
import { serverCpuMs } from './lib/cpu';

const run = promisify(execFile);
const TIMEOUT_MS = 600_000;
const SIM_DELIVERED = 'delivered@simulator.postwire.test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it is true; the seconds since `started` then. */
async function until(what: string, started: number, probe: () => Promise<boolean>): Promise<number> {
  while (!(await probe())) {
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${what} did not happen within ${TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
  return (performance.now() - started) / 1000;
}

const shell = async (command: string) => JSON.parse((await run('bash', ['-c', command])).stdout) as Record<string, unknown>;

async function oneStart(label: string, env: Record<string, string>): Promise<void> {
  const started = performance.now();
  const npm = startIsolated(env);
  try {
    const block = await npm.printed(TIMEOUT_MS);
    const printed = (performance.now() - started) / 1000;
    const capture = printedField(block, 'Mail capture');
    const curls = printedCurls(block);

    const to = `you+${randomUUID().slice(0, 8)}@example.com`;
    const sentAt = performance.now();
    await shell(curls.send.replace(SIM_DELIVERED, to));
    const inCapture = await until('the email in the mail capture', sentAt, async () =>
      (await (await fetch(`${capture}/?q=${encodeURIComponent(to)}`)).text()).includes('href="/messages/'),
    );
    const total = (performance.now() - started) / 1000;
    const cpuSeconds = serverCpuMs(npm.child.pid!) / 1000;

    const simulatedAt = performance.now();
    const answer = (await shell(curls.send)) as { data?: { emails?: Array<{ email: string }> } };
    const emailId = answer.data?.emails?.[0]?.email;
    if (!emailId) throw new Error(`the printed /v1/send answered ${JSON.stringify(answer)}`);
    const delivered = await until('delivered@ to be DELIVERED', simulatedAt, async () => {
      const page = (await shell(curls.activity)) as { data?: Array<{ type: string; email: { id: string } | null }> };
      return (page.data ?? []).some((item) => item.type === 'DELIVERED' && item.email?.id === emailId);
    });
    console.log(
      `${label}: account printed after ${printed.toFixed(1)} s; first email in the mail capture ${inCapture.toFixed(2)} s after ` +
        `its curl, ${total.toFixed(1)} s from npm start, ${cpuSeconds.toFixed(1)} CPU-s used by then; ` +
        `delivered@ DELIVERED ${delivered.toFixed(2)} s after its curl`,
    );
  } finally {
    await npm.stop();
  }
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'postwire-first-email-'));
  // Run as root, the embedded PostgreSQL runs as its own user, which must reach its data folder.
  fs.chmodSync(tmp, 0o755);
  try {
    const env = { ...(await freePorts()), POSTWIRE_DATA_DIR: path.join(tmp, 'data') };
    console.log(`npm start with its data in an empty folder and its own ports (${os.cpus().length} cores, installs already present)`);
    await oneStart('first start (empty data directory)', env);
    await oneStart('second start (same data directory)', env);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
