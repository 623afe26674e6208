/**
 * A project at the limits of docs/contacts.md: BENCH_FIELDS custom fields (default 1,000, the most a project may
 * have) over BENCH_CONTACTS contacts (default 1,000,000; each with 10 of the fields), and 10,000 tracked
 * events of 100 data keys each. For each request type within the limits (the field endpoints, a dynamic
 * segment create, a /v1/track and a POST /contacts at 100 keys, a contacts page), BENCH_RUNS requests
 * (default 30) one after another, printing:
 *
 * - the API's and its database backends' CPU per request;
 * - p50 / p99 latency;
 * - the API's event loop during a request (bench/lib/loop-monitored-api.ts): its longest stall, wall clock
 *   (perf_hooks monitorEventLoopDelay, 1 ms resolution, so an idle loop reads about 1 ms; on a busy machine
 *   it also counts waits for a core), and its longest block, the main thread's CPU between two ticks of a
 *   1 ms timer, which the machine's load does not inflate.
 *   Targets: no request blocks the loop 50 ms or more; field endpoints under 200 ms.
 *
 * It seeds its own database `postwire_bench_fields` once (INSERT … SELECT generate_series in chunks, the
 * catalog triggers running; about two minutes at the default size), reuses it on later runs, and starts the
 * API on BENCH_PORT (default 3300) over it. A smaller BENCH_CONTACTS (e.g. 100000) makes a quick run.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';
import { Project } from '../src/modules/projects/entities';
import { issueKeys } from '../src/modules/projects/keys';
import { startApiProcess } from './lib/api-process';
import { BackendCpu } from './lib/backend-cpu';
import { openBenchDatabase, seededAsHistory } from './lib/database';
import { readLoopWindow } from './lib/loop-window';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const FIELDS = Number(process.env.BENCH_FIELDS ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const EVENTS = 10_000;
const PER_CONTACT = 10;
const CHUNK = 100_000;
const PROJECT = `field-catalog bench, ${FIELDS} fields, ${CONTACTS} contacts`;
const APPLICATION = 'postwire-bench-field-catalog';

const fieldKey = (i: number) => `f${String(i).padStart(3, '0')}`;
const keyExpr = (i: string) => `'f' || lpad((${i})::text, 3, '0')`;

/** Contact i has fields (10 i + j) mod FIELDS, j < 10: odd ones a number of 100 values, even ones a string of 500. */
async function seed(em: EntityManager, projectId: string): Promise<void> {
  const started = performance.now();
  await em.execute(
    `insert into contact_fields (project_id, key, type, created_at)
     select ?, ${keyExpr('k')}, case when k % 2 = 1 then 'number' else 'string' end, now() from generate_series(0, ? - 1) k`,
    [projectId, FIELDS],
  );
  for (let from = 1; from <= CONTACTS; from += CHUNK) {
    const to = Math.min(CONTACTS, from + CHUNK - 1);
    await em.execute(
      `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), t, t, ?, 'contact' || i || '@bench.test', i % 10 <> 0,
         (select jsonb_object_agg(${keyExpr(`(i * ${PER_CONTACT} + j) % ${FIELDS}`)},
            case when (i * ${PER_CONTACT} + j) % 2 = 1 then to_jsonb(i % 100) else to_jsonb('v' || (i % 500)) end)
          from generate_series(0, ${PER_CONTACT - 1}) j)
       from generate_series(?::int, ?::int) i, lateral (select now() - interval '365 days' + i * (interval '365 days' / ?::float8) as t) ts`,
      [projectId, from, to, CONTACTS],
    );
    console.log(`  ${to} contacts, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await em.execute(
    `insert into events (id, created_at, project_id, contact_id, name, data)
     select gen_random_uuid(), now() - i * interval '1 second', ?, (select id from contacts where project_id = ? limit 1), 'event' || (i % 20),
       (select jsonb_object_agg('key' || k, k) from generate_series(1, 100) k)
     from generate_series(1, ?) i`,
    [projectId, projectId, EVENTS],
  );
  await seededAsHistory(em, projectId);
  await em.execute('vacuum analyze contacts');
  await em.execute('vacuum analyze events');
  console.log(
    `seeded ${FIELDS} fields, ${CONTACTS} contacts and ${EVENTS} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function benchProject(em: EntityManager): Promise<{ id: string; secret: string; publicKey: string }> {
  let project = await em.findOne(Project, { name: PROJECT });
  if (!project) {
    const owner = await signup(em, `bench-${Date.now()}@bench.test`, 'bench password 123');
    project = (await createProject(em, owner.id, PROJECT)).project;
    await seed(em, project.id);
  }
  const secret = issueKeys(project);
  await em.flush();
  return { id: project.id, secret, publicKey: project.publicKey };
}

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  key: 'secret' | 'public';
  body?: () => unknown;
}

/** 100 keys, all fields the project already has. */
const hundredKeys = () => Object.fromEntries(Array.from({ length: 100 }, (_, i) => [fieldKey(i % FIELDS), i % 2 === 1 ? i : `v${i}`]));

const cases: Case[] = [
  { name: 'GET /contacts/fields', method: 'GET', path: '/contacts/fields', key: 'secret' },
  { name: 'GET /workflows/fields', method: 'GET', path: '/workflows/fields', key: 'secret' },
  { name: 'GET /contacts/fields/data.f001/values', method: 'GET', path: `/contacts/fields/data.${fieldKey(1)}/values`, key: 'secret' },
  { name: 'GET /contacts/fields/data.f002/values', method: 'GET', path: `/contacts/fields/data.${fieldKey(2)}/values`, key: 'secret' },
  { name: 'GET /contacts/fields/email/values', method: 'GET', path: '/contacts/fields/email/values', key: 'secret' },
  {
    name: 'POST /segments (DYNAMIC, 2 filters)',
    method: 'POST',
    path: '/segments',
    key: 'secret',
    body: () => ({
      name: `Bench ${randomUUID().slice(0, 8)}`,
      condition: {
        logic: 'AND',
        groups: [
          {
            filters: [
              { field: `data.${fieldKey(1)}`, operator: 'greaterThan', value: 50 },
              { field: 'subscribed', operator: 'equals', value: true },
            ],
          },
        ],
      },
    }),
  },
  {
    name: 'POST /v1/track, 100 keys (existing contact)',
    method: 'POST',
    path: '/v1/track',
    key: 'public',
    body: () => ({ email: `contact${1 + Math.floor(Math.random() * CONTACTS)}@bench.test`, event: 'bench', data: hundredKeys() }),
  },
  {
    name: 'POST /v1/track, 100 keys (new contact)',
    method: 'POST',
    path: '/v1/track',
    key: 'public',
    body: () => ({ email: `new-${randomUUID()}@bench.test`, event: 'bench', data: hundredKeys() }),
  },
  {
    name: 'POST /contacts, 100 keys',
    method: 'POST',
    path: '/contacts',
    key: 'secret',
    body: () => ({ email: `new-${randomUUID()}@bench.test`, data: hundredKeys() }),
  },
  { name: 'GET /contacts (first page, total)', method: 'GET', path: '/contacts', key: 'secret' },
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const db = await openBenchDatabase('postwire_bench_fields');
  const loopFile = path.join(mkdtempSync(path.join(tmpdir(), 'postwire-loop-')), 'loop.json');
  try {
    const project = await benchProject(db.orm.em.fork());
    const api = await startApiProcess(
      Number(process.env.BENCH_PORT ?? 3300),
      db.url,
      { API_RATE_LIMIT_PER_MINUTE: '0', PGAPPNAME: APPLICATION, BENCH_LOOP_FILE: loopFile },
      'bench/lib/loop-monitored-api.ts',
    );
    const backends = new BackendCpu(db.orm.em, APPLICATION);
    try {
      const keys = { secret: project.secret, public: project.publicKey };
      const send = async (c: Case) => {
        const res = await fetch(`${api.url}${c.path}`, {
          method: c.method,
          headers: { authorization: `Bearer ${keys[c.key]}`, ...(c.body ? { 'content-type': 'application/json' } : {}) },
          ...(c.body ? { body: JSON.stringify(c.body()) } : {}),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${c.name} answered ${res.status}: ${text.slice(0, 300)}`);
      };
      // Warm the API's connections, prepared statements and code paths.
      for (const c of cases) for (let i = 0; i < 3; i++) await send(c);

      const rows: string[] = [];
      for (const c of cases) {
        const latencies: number[] = [];
        const stalls: number[] = [];
        const blocks: number[] = [];
        let apiCpuMs = 0;
        await backends.start();
        for (let i = 0; i < RUNS; i++) {
          const before = await readLoopWindow(loopFile);
          const started = performance.now();
          await send(c);
          latencies.push(performance.now() - started);
          const after = await readLoopWindow(loopFile);
          stalls.push(after.maxDelayMs);
          blocks.push(after.maxBlockMs);
          apiCpuMs += after.cpuMs - before.cpuMs;
        }
        const dbCpuMs = await backends.elapsedMs();
        latencies.sort((a, b) => a - b);
        stalls.sort((a, b) => a - b);
        blocks.sort((a, b) => a - b);
        rows.push(
          `  ${c.name.padEnd(46)} ${(apiCpuMs / RUNS).toFixed(1).padStart(6)} ${(dbCpuMs / RUNS).toFixed(1).padStart(7)}   ` +
            `${percentile(latencies, 50).toFixed(1).padStart(7)} / ${percentile(latencies, 99).toFixed(1).padEnd(7)}  ` +
            `${percentile(stalls, 50).toFixed(1).padStart(5)} / ${stalls[stalls.length - 1]!.toFixed(1).padEnd(6)}  ` +
            `${percentile(blocks, 50).toFixed(1).padStart(5)} / ${blocks[blocks.length - 1]!.toFixed(1)}`,
        );
        console.log(rows[rows.length - 1]);
      }
      console.log(`\n${FIELDS} fields, ${CONTACTS} contacts, ${RUNS} requests of each type, one at a time:`);
      console.log(`  ${'request'.padEnd(46)} CPU ms/request       latency ms        loop stall ms    loop block ms`);
      console.log(`  ${''.padEnd(46)}    API      DB    p50 / p99          p50 / max        p50 / max`);
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
