/**
 * How long a new developer waits for a first email: from `npm start` until the development account is
 * printed, then until an email sent with the printed key and sender is in the mail capture (its web page
 * lists it) and until one to delivered@simulator.postwire.test is DELIVERED (docs/sandbox.md). Runs
 * `npm start` BENCH_STARTS times (default 2: the first may include first-time setup), stopping each as
 * Ctrl-C would, and prints each figure. It refuses to run while an API already answers on PORT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isPortOpen } from '../scripts/lib/net';
import { ports } from '../scripts/lib/ports';

const root = path.resolve(__dirname, '..');
const api = `http://127.0.0.1:${ports.api}`;
const TIMEOUT_MS = 600_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function answers(): Promise<boolean> {
  try {
    return (await fetch(`${api}/config`)).ok;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** Polls `probe` until it is true; the seconds since `started` then. */
async function until(what: string, started: number, probe: () => Promise<boolean> | boolean): Promise<number> {
  while (!(await probe())) {
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${what} did not happen within ${TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
  return (performance.now() - started) / 1000;
}

async function send(secret: string, from: string, to: string): Promise<string> {
  const res = await fetch(`${api}/v1/send`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ from, to, subject: 'First email', body: '<p>Hello</p>' }),
  });
  const body = (await res.json()) as { data?: { emails?: Array<{ email: string }> } };
  const id = body.data?.emails?.[0]?.email;
  if (!res.ok || !id) throw new Error(`/v1/send answered ${res.status}: ${JSON.stringify(body)}`);
  return id;
}

/** Whether the activity feed lists the email as delivered. */
async function isDelivered(secret: string, emailId: string): Promise<boolean> {
  const res = await fetch(`${api}/activity?type=DELIVERED&limit=50`, { headers: { Authorization: `Bearer ${secret}` } });
  const page = (await res.json()) as { data?: Array<{ email: { id: string } | null }> };
  return (page.data ?? []).some((item) => item.email?.id === emailId);
}

async function oneStart(run: number): Promise<void> {
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const stopped = exited(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const printed = await until('the development account', started, () => {
      if (child.exitCode !== null) throw new Error(`npm start exited with code ${child.exitCode}:\n${output}`);
      return /Public key\s+\S+/.test(output);
    });
    const secret = /Secret key\s+(\S+)/.exec(output)![1]!;
    const sender = /Sender\s+(\S+)/.exec(output)![1]!;
    const captureAt = performance.now();
    const to = `first-${randomUUID().slice(0, 8)}@example.com`;
    await send(secret, sender, to);
    const inCapture = await until('the email in the mail capture', captureAt, async () =>
      (await (await fetch(`http://127.0.0.1:${ports.mailWeb}/`)).text()).includes(to),
    );
    const simulatorAt = performance.now();
    const simulated = `delivered+${randomUUID().slice(0, 8)}@simulator.postwire.test`;
    const emailId = await send(secret, sender, simulated);
    const delivered = await until('delivered@ to be DELIVERED', simulatorAt, () => isDelivered(secret, emailId));
    console.log(
      `npm start #${run}: account printed after ${printed.toFixed(1)} s${run === 1 ? ' (may include first-time setup)' : ''}; ` +
        `first email in the mail capture ${inCapture.toFixed(2)} s after its /v1/send (${(printed + inCapture).toFixed(1)} s from npm start); ` +
        `delivered@ DELIVERED ${delivered.toFixed(2)} s after its /v1/send`,
    );
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await stopped;
    while (await isPortOpen(ports.api)) await sleep(100);
  }
}

async function main(): Promise<void> {
  if (await answers()) {
    console.error(`An API already answers on ${api}: stop that npm start first; this measures starting from stopped.`);
    process.exit(2);
  }
  const runs = Number(process.env.BENCH_STARTS ?? 2);
  for (let run = 1; run <= runs; run++) await oneStart(run);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
