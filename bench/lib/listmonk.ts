import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ensureDatabase } from '../../scripts/lib/postgres';
import { freeTcpPort, waitForPort } from '../../scripts/lib/net';
import { PlatformUsage } from './platform-usage';
import { walSince } from './wal';

/**
 * listmonk (the fastest open-source campaign sender we know of) sending a campaign of the same size and
 * content to the same counting SMTP server, for the campaign bench's comparison in one run (issue 28:
 * Postwire's CPU per email against listmonk's plus one DKIM signature, which listmonk leaves to its MTA).
 * `dir` is a listmonk checkout with its binary built in it (the `fetch` tool brings knadh/listmonk; `git
 * checkout v6.2.0 && CGO_ENABLED=0 go build -o listmonk ./cmd`): without its embedded assets it reads its
 * queries and templates from there. Its database is `listmonk_bench` on the benchmark's PostgreSQL server,
 * made anew by `--install` on every run.
 */

export interface ListmonkRun {
  seconds: number;
  cpuMs: { listmonk: number; postgres: number };
  /** The server's WAL over the send (bench/lib/wal.ts). */
  walBytes: number;
}

const SETTINGS = (smtpPort: number) => ({
  smtp: [
    {
      enabled: true,
      host: '127.0.0.1',
      port: smtpPort,
      auth_protocol: 'none',
      username: '',
      password: '',
      hello_hostname: '',
      max_conns: 10,
      idle_timeout: '15s',
      wait_timeout: '5s',
      max_msg_retries: 2,
      msg_retry_delay: '10ms',
      tls_type: 'none',
      tls_skip_verify: false,
      email_headers: [],
      from_addresses: [],
    },
  ],
  // Its defaults throttle each of 10 workers to 10 messages a second; the comparison is of capacity.
  'app.concurrency': 10,
  'app.message_rate': 100000,
  'app.batch_size': 1000,
});

/** Postwire's `{{ name }}` in listmonk's notation. */
const listmonkNotation = (source: string) => source.replace(/\{\{\s*name\s*\}\}/g, '{{ .Subscriber.Name }}');

/**
 * Sends a campaign of `content` to `contacts` subscribers (each with a name) and waits until listmonk has
 * finished it and the SMTP server has counted them all (`sentCount`).
 */
export async function runListmonk(
  dir: string,
  adminUrl: string,
  contacts: number,
  smtpPort: number,
  content: { subject: string; html: string },
  sentCount: () => Promise<number>,
): Promise<ListmonkRun> {
  const binary = path.join(dir, 'listmonk');
  if (!existsSync(binary)) throw new Error(`no listmonk binary in ${dir}: build it there (CGO_ENABLED=0 go build -o listmonk ./cmd)`);
  const url = new URL(await ensureDatabase(adminUrl, 'listmonk_bench'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'listmonk-bench-'));
  const config = path.join(work, 'config.toml');
  const port = await freeTcpPort();
  await writeFile(
    config,
    `[app]\naddress = "127.0.0.1:${port}"\n[db]\nhost = "${url.hostname}"\nport = ${url.port}\nuser = "${decodeURIComponent(url.username)}"\n` +
      `password = "${decodeURIComponent(url.password)}"\ndatabase = "listmonk_bench"\nssl_mode = "disable"\nmax_open = 25\nmax_idle = 25\n` +
      `max_lifetime = "300s"\nparams = ""\n`,
  );
  // It loads its admin UI from there when built without its assets; no UI is needed, an empty folder will do.
  await mkdir(path.join(dir, 'frontend', 'dist'), { recursive: true });
  const env = { LISTMONK_ADMIN_USER: 'bench', LISTMONK_ADMIN_PASSWORD: 'bench-password' };
  // A failure throws with listmonk's output.
  await promisify(execFile)(binary, ['--install', '--yes', '--config', config], { cwd: dir, env: { ...process.env, ...env } });

  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  let child: ReturnType<typeof spawn> | undefined;
  try {
    for (const [key, value] of Object.entries(SETTINGS(smtpPort))) {
      await db.query(`update settings set value = $1 where key = $2`, [JSON.stringify(value), key]);
    }
    const {
      rows: [list],
    } = await db.query<{ id: number }>(
      `insert into lists (uuid, name, type, optin) values (gen_random_uuid(), 'bench', 'public', 'single') returning id`,
    );
    await db.query(
      `insert into subscribers (uuid, email, name, status)
       select gen_random_uuid(), 'lm-' || g || '@bench.test', 'Reader ' || g, 'enabled' from generate_series(1, $1::int) g`,
      [contacts],
    );
    // Not the two sample subscribers --install adds.
    await db.query(
      `insert into subscriber_lists (subscriber_id, list_id, status) select id, $1, 'confirmed' from subscribers where email like 'lm-%'`,
      [list!.id],
    );
    // As the Postwire side does for its contacts: statistics and visibility as autovacuum would leave them.
    await db.query(`vacuum analyze subscribers, subscriber_lists`);
    const {
      rows: [campaign],
    } = await db.query<{ id: number }>(
      `insert into campaigns (uuid, name, subject, from_email, body, content_type, messenger, template_id, status, type)
       values (gen_random_uuid(), 'bench', $1, 'News <news@bench.test>', $2, 'html', 'email',
         (select id from templates where is_default limit 1), 'draft', 'regular') returning id`,
      [listmonkNotation(content.subject), listmonkNotation(content.html)],
    );
    await db.query(`insert into campaign_lists (campaign_id, list_id, list_name) values ($1, $2, 'bench')`, [campaign!.id, list!.id]);

    child = spawn(binary, ['--config', config], { cwd: dir, env: { ...process.env, ...env }, stdio: 'ignore' });
    const listmonkPid = child.pid!;
    await waitForPort(port, 'listmonk', 30_000);
    const usage = new PlatformUsage({ workers: () => [listmonkPid], databaseUrl: url.toString() });
    const started = performance.now();
    usage.begin();
    const wal = await walSince(async (sql) => (await db.query(sql)).rows);
    await db.query(`update campaigns set status = 'running' where id = $1`, [campaign!.id]);
    for (;;) {
      const {
        rows: [state],
      } = await db.query<{ status: string }>(`select status from campaigns where id = $1`, [campaign!.id]);
      if (state!.status === 'finished' && (await sentCount()) >= contacts) break;
      if (state!.status === 'cancelled' || state!.status === 'paused') throw new Error(`listmonk's campaign is ${state!.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    const { cpuMs } = usage.end();
    return { seconds, cpuMs: { listmonk: cpuMs.workers, postgres: cpuMs.postgres }, walBytes: await wal() };
  } finally {
    child?.kill('SIGTERM');
    await db.end();
    await rm(work, { recursive: true, force: true });
  }
}
