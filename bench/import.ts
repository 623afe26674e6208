/**
 * `npm run bench -- import`: a 100,000-row CSV imported through the HTTP API end to end — upload, then
 * poll GET /contacts/import/{jobId} until the job completes — against BENCH_URL (default
 * http://localhost:3000, e.g. the API and worker of `npm start`). Prints the upload time, the total time and
 * rows per second. BENCH_ROWS changes the row count. Target: 100,000 rows in under 60 s.
 */
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

async function main(): Promise<void> {
  const tenant = await createTenant(baseUrl);
  const auth = { authorization: `Bearer ${tenant.secret}` };
  const file = generateCsv(rows);
  console.log(`import: ${rows.toLocaleString('en-US')} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB, ${baseUrl}`);

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
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const done = performance.now();
  const seconds = (done - started) / 1000;
  console.log(
    `  upload answered 202 in ${((accepted - started) / 1000).toFixed(2)} s; job ${job.state} after ${seconds.toFixed(2)} s in all`,
  );
  console.log(
    `  ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s | result ${JSON.stringify({ ...job.result, errors: (job.result.errors as unknown[]).length })}`,
  );
  if (job.state === 'failed') throw new Error(`the job failed: ${job.failedReason}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
