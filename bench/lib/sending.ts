import { spawn, type ChildProcess } from 'node:child_process';
import { freshSecrets } from './secrets';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig, type Config } from '../../src/config';
import { newId } from '../../src/db/columns';
import { initOrm } from '../../src/app/orm';
import { migrate, type Orm } from '../../src/db/orm';
import { SecretBox } from '../../src/crypto/secret-box';
import { newDkimKey } from '../../src/modules/domains/dkim';
import { Domain } from '../../src/modules/domains/entities';
import { expectedRecords } from '../../src/modules/domains/records';
import { createProject } from '../../src/modules/projects/service';
import { signup } from '../../src/modules/users/service';
import { ensureDatabase, ensurePostgres, type PostgresHandle } from '../../scripts/lib/postgres';
import { ports } from '../../scripts/lib/ports';
import { tsx } from '../../scripts/lib/paths';
import type { SinkCounts } from './counting-sink-server';

/** A database of the benchmark's own, migrated, with a project whose sender domain is verified. */
export interface SendingBench {
  /** Settings for processes that work on this database (secrets included), as environment variables. */
  env: Record<string, string>;
  config: Config;
  orm: Orm;
  projectId: string;
  secret: string;
  from: string;
  close(): Promise<void>;
}

export async function sendingBench(database: string, env: Record<string, string> = {}): Promise<SendingBench> {
  const pg: PostgresHandle = await ensurePostgres(ports.postgres, console.log);
  const settings = {
    DATABASE_URL: await ensureDatabase(pg.adminUrl, database),
    ...freshSecrets(),
    LOG_LEVEL: 'warn',
    // npm start's Temporal server, wherever the ports file put it.
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? `127.0.0.1:${ports.temporal}`,
    ...env,
  };
  const config = loadConfig(settings);
  const orm = await initOrm(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await migrate(orm);
  const { projectId, secret, from } = await senderProject(orm, config, `${database} ${new Date().toISOString()}`);
  return {
    env: settings,
    config,
    orm,
    projectId,
    secret,
    from,
    close: async () => {
      await orm.close();
      await pg.stop();
    },
  };
}

/** A new user's project named `name` whose sender domain is entered as verified: the benchmarks measure sending, not DNS. */
export async function senderProject(orm: Orm, config: Config, name: string): Promise<{ projectId: string; secret: string; from: string }> {
  const em = orm.em.fork();
  const owner = await signup(em, `bench-${newId()}@bench.test`, 'bench password 123');
  const { project, secret } = await createProject(em, owner.id, name);
  const id = newId();
  const domain = `${id.slice(0, 8)}.bench.test`;
  const key = await newDkimKey(new SecretBox(config.ENCRYPTION_KEY), id);
  em.create(Domain, {
    id,
    projectId: project.id,
    domain,
    selector: config.DKIM_SELECTOR,
    dkimPublicKey: key.publicKey,
    dkimPrivateKeyEncrypted: key.sealedPrivateKey,
    verified: true,
    verifiedAt: new Date(),
    lastCheckedAt: new Date(),
    records: expectedRecords(domain, config.DKIM_SELECTOR, key.publicKey, config.SPF_INCLUDE),
  });
  await em.flush();
  // BENCH_FREQUENCY_CAP=<maxEmails>/<windowDays>: the project's frequency cap (docs/projects.md), to measure what it costs.
  const cap = /^(\d+)\/(\d+)$/.exec(process.env.BENCH_FREQUENCY_CAP ?? '');
  if (cap) await em.execute('update projects set frequency_cap_max = ?, frequency_cap_days = ? where id = ?', [cap[1], cap[2], project.id]);
  return { projectId: project.id, secret, from: `bench@${domain}` };
}

/** Starts a process (tsx script) and resolves with it once it prints a line matching `ready`. */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(tsx, [path.resolve(__dirname, '..', '..', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
    lines.on('line', (line) => {
      const m = ready.exec(line);
      if (m) resolve(m);
    });
  });
  return { child, match };
}

/** The SMTP server of bench/lib/smtp-sink-server.ts, in its own process; resolves with its smtp:// URL. */
export async function startSmtpSink(): Promise<{ url: string; stop(): void }> {
  const { child, match } = await startProcess('bench/lib/smtp-sink-server.ts', {}, /^listening (\d+)$/);
  return { url: `smtp://127.0.0.1:${match[1]}`, stop: () => child.kill('SIGTERM') };
}

/**
 * /v1/send bodies of one new recipient each, an inline body and a request-only variable, as bench/send and
 * bench/send-batch load the API with them.
 */
export function signInCodes(from: string): () => Record<string, unknown> {
  const run = Date.now().toString(36);
  let n = 0;
  return () => {
    n += 1;
    return {
      to: { name: `Reader ${n}`, email: `reader-${n}-${run}@bench.test` },
      from: { name: 'Bench', email: from },
      subject: 'Your sign-in code',
      body: '<p>Hello {{ name ?? "there" }},</p><p>your code is <b>{{ code }}</b>.</p>',
      data: { code: { value: String(100000 + n), persistent: false } },
    };
  };
}

/** bench/lib/counting-sink-server.ts in its own process: what arrived, counted per recipient and Message-ID. */
export async function startCountingSink() {
  const { child, match } = await startProcess('bench/lib/counting-sink-server.ts', {}, /^listening (\d+) (\d+)$/);
  const http = `http://127.0.0.1:${match[2]}`;
  const call = async (method: 'GET' | 'POST', path: string) => (await (await fetch(`${http}${path}`, { method })).json()) as SinkCounts;
  return {
    url: `smtp://127.0.0.1:${match[1]}`,
    counts: () => call('GET', '/'),
    reset: () => call('POST', '/reset'),
    stop: () => child.kill('SIGTERM'),
  };
}

/** The machine's load, to print beside figures measured on a shared machine. */
export function loadNote(): string {
  const [one, five] = os.loadavg();
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) on ${os.cpus().length} cores`;
}
