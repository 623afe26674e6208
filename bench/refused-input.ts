/**
 * What a refused request (and the largest accepted CSV import) costs everyone else: for each case of
 * docs/architecture.md "The body pipeline" "A refused request costs little", BENCH_RUNS requests (default 3) one
 * at a time, while another tenant reads `GET /contacts` in a loop on its own connection. Per case it prints:
 *
 * - the answer's status and latency;
 * - inside the API process (bench/lib/loop-monitored-api.ts): the event loop's longest block (main-thread CPU
 *   between two ticks of a 1 ms timer, which the machine's load does not inflate) and its longest wall-clock
 *   stall (perf_hooks monitorEventLoopDelay);
 * - the API's CPU per request;
 * - the other tenant's `GET /contacts` latency while the request ran, p50 / max.
 *
 * Target: no request blocks the loop 50 ms. BENCH_CASES picks cases by name (a regular expression). It starts the API on BENCH_PORT (default 3320) over
 * `postwire_bench_refused`; imports answer 503 unless TEMPORAL_ADDRESS reaches a Temporal server (the file is
 * parsed and staged either way, which is what is measured).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApiProcess } from './lib/api-process';
import { openBenchDatabase } from './lib/database';
import { readLoopWindow } from './lib/loop-window';
import { createTenant } from './lib/tenant';
import { REFUSED_TEMPLATES, csvOf, longArrayTrack, manyKeysTrack, multipartFile } from '../test/helpers/heavy-bodies';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Only the cases whose name matches (a regular expression), e.g. BENCH_CASES=CSV. */
const ONLY = new RegExp(process.env.BENCH_CASES ?? '', 'i');
const MB = 1_000_000;

interface Case {
  name: string;
  path: string;
  key: 'secret' | 'public';
  contentType: string;
  body: Buffer;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

function cases(): Case[] {
  const csv = (bytes: number, name: string): Case => ({ name, path: '/contacts/import', key: 'secret', ...multipartFile(csvOf(bytes)) });
  const track = (name: string, body: Buffer): Case => ({ name, path: '/v1/track', key: 'public', contentType: 'application/json', body });
  const preview = (name: string, body: string): Case => ({
    name,
    path: '/templates/preview',
    key: 'secret',
    contentType: 'application/json',
    body: json({ subject: 'Hi', body }),
  });
  return [
    track('/v1/track, 200,000 short keys', manyKeysTrack(200_000)),
    track('/v1/track, an array of 300,000 elements', longArrayTrack(300_000)),
    csv(4_900_000, 'CSV import, 4.9 MB'),
    csv(5_000_000, 'CSV import, 5,000,000 bytes'),
    csv(5_000_001, 'CSV import, 5,000,001 bytes'),
    csv(5_300_000, 'CSV import, 5.3 MB'),
    preview('template preview, 140,000 tags, refused', REFUSED_TEMPLATES.tooManyTags),
    preview('template preview, a render past its budget', REFUSED_TEMPLATES.renderPastBudget),
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main(): Promise<void> {
  const db = await openBenchDatabase('postwire_bench_refused');
  const loopFile = path.join(mkdtempSync(path.join(tmpdir(), 'postwire-loop-')), 'loop.json');
  try {
    const api = await startApiProcess(
      Number(process.env.BENCH_PORT ?? 3320),
      db.url,
      { API_RATE_LIMIT_PER_MINUTE: '0', BENCH_LOOP_FILE: loopFile },
      'bench/lib/loop-monitored-api.ts',
    );
    try {
      const [tenant, other] = [await createTenant(api.url), await createTenant(api.url)];
      const keys = { secret: tenant.secret, public: tenant.publicKey };
      const list = async () => {
        const started = performance.now();
        const res = await fetch(`${api.url}/contacts`, { headers: { authorization: `Bearer ${other.secret}` } });
        await res.arrayBuffer();
        return performance.now() - started;
      };
      for (let i = 0; i < 5; i++) await list();

      const rows: string[] = [];
      for (const c of cases().filter((c) => ONLY.test(c.name))) {
        const statuses = new Set<number>();
        const latencies: number[] = [];
        const blocks: number[] = [];
        const stalls: number[] = [];
        const others: number[] = [];
        let cpuMs = 0;
        for (let i = 0; i < RUNS; i++) {
          const before = await readLoopWindow(loopFile);
          let running = true;
          const reading = (async () => {
            while (running) others.push(await list());
          })();
          const started = performance.now();
          const res = await fetch(`${api.url}${c.path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${keys[c.key]}`, 'content-type': c.contentType },
            body: c.body,
          });
          await res.arrayBuffer();
          latencies.push(performance.now() - started);
          statuses.add(res.status);
          running = false;
          await reading;
          const after = await readLoopWindow(loopFile);
          blocks.push(after.maxBlockMs);
          stalls.push(after.maxDelayMs);
          cpuMs += after.cpuMs - before.cpuMs;
        }
        for (const list of [latencies, blocks, stalls, others]) list.sort((a, b) => a - b);
        rows.push(
          `  ${c.name.padEnd(44)} ${[...statuses].join('/').padEnd(7)} ${(c.body.length / MB).toFixed(2).padStart(5)} ` +
            `${percentile(latencies, 50).toFixed(0).padStart(7)} ${(cpuMs / RUNS).toFixed(0).padStart(6)}   ` +
            `${blocks[blocks.length - 1]!.toFixed(1).padStart(7)} ${stalls[stalls.length - 1]!.toFixed(1).padStart(7)}   ` +
            `${percentile(others, 50).toFixed(1).padStart(6)} / ${others[others.length - 1]!.toFixed(1)}`,
        );
        console.log(rows[rows.length - 1]);
      }
      console.log(`\n${RUNS} requests of each case, one at a time, another tenant reading GET /contacts meanwhile:`);
      console.log(`  ${'request'.padEnd(44)} status   MB    ms p50  API CPU  loop block  stall   other tenant ms`);
      console.log(`  ${''.padEnd(44)}                        ms/req    max ms    max ms   p50 / max`);
      for (const row of rows) console.log(row);
    } finally {
      await api.stop();
    }
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
