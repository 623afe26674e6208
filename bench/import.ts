/**
 * `npm run bench -- import`: a 100,000-row CSV imported through the HTTP API end to end — upload, then
 * poll GET /contacts/import/{jobId} until the job completes — against BENCH_URL (default
 * http://localhost:3000, e.g. the API and worker of `npm start`), twice into the same project: first every
 * row a new contact, then every row an existing one (a list synced again). Prints, for each, the upload
 * time, the total time, rows per second and the CPU per row of the PostgreSQL server of `npm start`: every
 * backend, autovacuum included, then the platform's own connections alone (the statements, without the
 * vacuums that earlier runs' rows may set off). BENCH_ROWS changes the row count. Target: 100,000 rows in
 * under 60 s.
 */
import pg from 'pg';
import { ensurePostgres } from '../scripts/lib/postgres';
import { ports } from '../scripts/lib/ports';
import { listenerPid, serverCpuMs } from './lib/cpu';
import { BackendCpuSpan } from './lib/backend-cpu';
import { createTenant } from './lib/tenant';

const baseUrl = process.env.BENCH_URL ?? 'http://localhost:3000';
const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const POLL_MS = 250;
const TIMEOUT_MS = 10 * 60_000;

/** Rows like a real export, kept short so that 100,000 of them fit in 5 MB: a header with a space, a number, a date, a flag. */
function generateCsv(count: number): Buffer {
  const lines = ['email,first name,plan,score,signed up,subscribed'];
  for (let i = 0; i < count; i++) {
    lines.push(`u${i}@ex.test,P ${i},${i % 3 === 0 ? 'pro' : 'free'},${i % 100},2024-0${(i % 9) + 1}-15,${i % 10 !== 0}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

interface JobPoll {
  state: string;
  progress: number;
  result: Record<string, unknown>;
  failedReason?: string;
}

interface Postgres {
  serverPid: number | null;
  client: pg.Client;
}

/** `npm start`'s processes name none of their connections: they are the client backends without an application name (this one has its own). */
const PLATFORM_CONNECTIONS = 'client backend';

async function importOnce(label: string, file: Buffer, auth: Record<string, string>, postgres: Postgres): Promise<void> {
  const serverBefore = postgres.serverPid === null ? 0 : serverCpuMs(postgres.serverPid);
  const connections = new BackendCpuSpan(async (sql) => (await postgres.client.query(sql)).rows);
  await connections.sample();
  const started = performance.now();
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'bench.csv');
  const res = await fetch(`${baseUrl}/contacts/import`, { method: 'POST', headers: auth, body: form });
  if (res.status !== 202) throw new Error(`POST /contacts/import answered ${res.status}: ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  const accepted = performance.now();

  let job: JobPoll;
  for (;;) {
    const poll = await fetch(`${baseUrl}/contacts/import/${jobId}`, { headers: auth });
    if (!poll.ok) throw new Error(`GET /contacts/import/${jobId} answered ${poll.status}: ${await poll.text()}`);
    job = (await poll.json()) as JobPoll;
    if (job.state === 'completed' || job.state === 'failed') break;
    if (performance.now() - started > TIMEOUT_MS)
      throw new Error(`job still ${job.state} at ${job.progress}% after ${TIMEOUT_MS / 1000} s`);
    await connections.sample();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const done = performance.now();
  const seconds = (done - started) / 1000;
  await connections.sample();
  const perRow = (ms: number) => `${(ms / rows).toFixed(3)} ms`;
  const postgresPerRow = `${postgres.serverPid === null ? 'not measured' : perRow(serverCpuMs(postgres.serverPid) - serverBefore)} (its client connections ${perRow(connections.byApplication().get(PLATFORM_CONNECTIONS) ?? 0)})`;
  console.log(
    `${label}: upload answered 202 in ${((accepted - started) / 1000).toFixed(2)} s; job ${job.state} after ${seconds.toFixed(2)} s in all`,
  );
  console.log(
    `  ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s; PostgreSQL CPU per row ${postgresPerRow} | result ${JSON.stringify({ ...job.result, errors: (job.result.errors as unknown[]).length })}`,
  );
  if (job.state === 'failed') throw new Error(`the job failed: ${job.failedReason}`);
}

async function main(): Promise<void> {
  const tenant = await createTenant(baseUrl);
  const auth = { authorization: `Bearer ${tenant.secret}` };
  const file = generateCsv(rows);
  const server = await ensurePostgres(ports.postgres, console.log);
  const client = new pg.Client({ connectionString: server.adminUrl, application_name: 'bench import' });
  await client.connect();
  const postgres = { serverPid: listenerPid(ports.postgres), client };
  console.log(`import: ${rows.toLocaleString('en-US')} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB, ${baseUrl}`);
  try {
    await importOnce('every row new', file, auth, postgres);
    await importOnce('the same rows again, every one an existing contact', file, auth, postgres);
  } finally {
    await client.end();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
