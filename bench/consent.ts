/**
 * What consent costs (docs/contributors/consent.md "Figures"), each beside what it is compared with in the same run:
 *
 * 1. Campaign audiences: counting a MARKETING audience over BENCH_CONTACTS contacts (default 1,000,000) of
 *    one project with the rule as it was (`subscribed`) and as it is (not unconfirmed, not snoozed; then
 *    also in a topic, default OUT and default IN), 2% of the contacts holding a consent row and a third
 *    having chosen about each topic. PostgreSQL CPU per count and per contact, one backend, no parallel
 *    workers. Own database `postwire_bench_consent`, seeded once.
 * 2. Signups: `POST /f/{formId}` (single opt-in, one topic) beside `POST /contacts` with the same data,
 *    BENCH_SIGNUPS each (default 2,000) over 8 connections: CPU per request of the API process and of its
 *    database connections. The API runs on BENCH_PORT (default 3170) without its request limit.
 */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { startApiProcess } from './lib/api-process';
import { BackendCpu } from './lib/backend-cpu';
import { treeCpuMs } from './lib/cpu';
import { openBenchDatabase } from './lib/database';
import { loadNote } from './lib/sending';
import { createTenant } from './lib/tenant';
import { marketingConsentSql } from '../src/modules/consent/rules';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';
import { Project } from '../src/modules/projects/entities';
import { startToken } from '../src/modules/forms/start-token';
import { median } from './lib/node-process';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 2_000);
const PROJECT = `consent bench, ${CONTACTS} contacts`;
const APPLICATION = 'postwire-bench-consent-api';

interface Seeded {
  projectId: string;
  optOut: string;
  optIn: string;
}

/** 95% subscribed; 1% snoozed, 1% unconfirmed; a third chose about each topic (in for the OUT one, out for the IN one). */
async function seed(em: EntityManager, projectId: string): Promise<Seeded> {
  const started = performance.now();
  await em.execute(
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), now(), now(), ?, 'c' || i || '@bench.test', i % 20 <> 0, '{}'::jsonb from generate_series(1, ?) i`,
    [projectId, CONTACTS],
  );
  const topic = async (name: string, membership: string) =>
    (
      await em.execute<Array<{ id: string }>>(
        `insert into topics (id, created_at, updated_at, project_id, name, default_membership) values (gen_random_uuid(), now(), now(), ?, ?, ?) returning id`,
        [projectId, name, membership],
      )
    )[0]!.id;
  const optOut = await topic('Digest', 'OUT');
  const optIn = await topic('News', 'IN');
  await em.execute(
    `insert into contact_consent (contact_id, unconfirmed, snoozed_until, snoozed_at)
     select id, n % 2 = 0, case when n % 2 = 1 then now() + interval '14 days' end, case when n % 2 = 1 then now() end
     from (select id, row_number() over () as n from contacts where project_id = ? and abs(hashtext(email)) % 50 = 0) s`,
    [projectId],
  );
  await em.execute(
    `insert into contact_topics (topic_id, contact_id, member, changed_at)
     select t.topic_id, c.id, t.member, now() from contacts c
     cross join (values (?::uuid, true), (?::uuid, false)) as t(topic_id, member)
     where c.project_id = ? and abs(hashtext(c.email || t.topic_id::text)) % 3 = 0`,
    [optOut, optIn, projectId],
  );
  await em.execute('analyze contacts; analyze contact_consent; analyze contact_topics; analyze topics');
  console.log(`seeded ${CONTACTS} contacts, their consent and topic choices in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { projectId, optOut, optIn };
}

async function seeded(em: EntityManager): Promise<Seeded> {
  const existing = await em.findOne(Project, { name: PROJECT });
  if (existing) {
    const topics = await em.execute<Array<{ id: string; default_membership: string }>>(
      'select id, default_membership from topics where project_id = ?',
      [existing.id],
    );
    const of = (m: string) => topics.find((t) => t.default_membership === m)!.id;
    return { projectId: existing.id, optOut: of('OUT'), optIn: of('IN') };
  }
  const owner = await signup(em, `bench-${Date.now()}@bench.test`, 'bench password 123');
  const { project } = await createProject(em, owner.id, PROJECT);
  return seed(em, project.id);
}

/** Counts the audience `RUNS` times after a warm-up, on one connection without parallel workers: its backend's CPU per count. */
async function audience(em: EntityManager, label: string, projectId: string, condition: { sql: string; params: unknown[] }) {
  const cpu = new BackendCpu(em);
  const times: number[] = [];
  let count = 0;
  await em.transactional(async (tx) => {
    await tx.execute('set local max_parallel_workers_per_gather = 0');
    for (let run = 0; run <= RUNS; run++) {
      await cpu.start();
      const [row] = await tx.execute<Array<{ n: number }>>(
        `select count(*)::int as n from contacts c where c.project_id = ? and ${condition.sql}`,
        [projectId, ...condition.params],
      );
      if (run > 0) times.push(await cpu.elapsedMs());
      count = row!.n;
    }
  });
  const ms = median(times);
  console.log(
    `  ${label.padEnd(44)} ${String(count).padStart(8)} recipients  ${ms.toFixed(0).padStart(5)} ms CPU  ${((ms * 1e6) / CONTACTS).toFixed(0)} ns/contact`,
  );
  return ms;
}

/** `total` requests made by `request(i)`, 8 at a time. */
async function load(total: number, request: (i: number) => Promise<Response>): Promise<void> {
  let next = 0;
  const failures = new Map<number, number>();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < total) {
        const res = await request(next++);
        await res.arrayBuffer();
        if (res.status >= 400) failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
      }
    }),
  );
  if (failures.size > 0) throw new Error(`refused: ${JSON.stringify(Object.fromEntries(failures))}`);
}

async function signups(databaseUrl: string, em: EntityManager): Promise<void> {
  const linkSecret = randomBytes(32).toString('hex');
  const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3170), databaseUrl, {
    API_RATE_LIMIT_PER_MINUTE: '0',
    SIGNUP_LIMIT_PER_IP: String(SIGNUPS * 10),
    SIGNUP_MIN_FILL_SECONDS: '0',
    LINK_SECRET: linkSecret,
    PGAPPNAME: APPLICATION,
  });
  const database = new BackendCpu(em, APPLICATION);
  try {
    const t = await createTenant(api.url);
    const json = { authorization: `Bearer ${t.secret}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${api.url}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
    const topic = (await (await post('/topics', { name: 'Digest' })).json()) as { id: string };
    const fields = [
      { key: 'email', label: 'Email', type: 'email', required: true },
      { key: 'data.firstName', label: 'First name', type: 'text' },
    ];
    const form = (await (await post('/forms', { name: 'Bench', fields, topicIds: [topic.id] })).json()) as { id: string };
    const run = Date.now().toString(36);
    const measure = async (label: string, request: (i: number) => Promise<Response>) => {
      await load(100, request);
      const before = treeCpuMs(api.pid);
      await database.start();
      await load(SIGNUPS, (i) => request(i + 100));
      const per = (ms: number) => (ms / SIGNUPS).toFixed(2);
      console.log(
        `  ${label.padEnd(44)} API ${per(treeCpuMs(api.pid) - before)} ms, PostgreSQL ${per(await database.elapsedMs())} ms per request`,
      );
    };
    await measure('POST /contacts (the calibration)', (i) =>
      post('/contacts', { email: `a-${i}-${run}@bench.test`, data: { firstName: 'Ann' } }),
    );
    await measure('POST /f/{formId} (single opt-in, one topic)', (i) =>
      fetch(`${api.url}/f/${form.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: `f-${i}-${run}@bench.test`,
          'data.firstName': 'Ann',
          website: '',
          _pw_started: startToken({ JWT_SECRET: linkSecret, LINK_SECRET: linkSecret }, form.id, Date.now() - 5_000),
        }).toString(),
      }),
    );
  } finally {
    await api.stop();
  }
}

async function main(): Promise<void> {
  const bench = await openBenchDatabase(process.env.BENCH_DATABASE ?? 'postwire_bench_consent');
  try {
    const em = bench.orm.em.fork();
    const s = await seeded(em);
    console.log(`campaign audience of ${CONTACTS} contacts (median of ${RUNS} counts; ${loadNote()})`);
    const before = await audience(em, 'subscribed (the rule before consent)', s.projectId, { sql: 'c."subscribed"', params: [] });
    const after = await audience(em, 'subscribed, confirmed, not snoozed', s.projectId, marketingConsentSql('c', null));
    const out = await audience(
      em,
      '... and in a topic (default OUT)',
      s.projectId,
      marketingConsentSql('c', { id: s.optOut, defaultIn: false }),
    );
    const inn = await audience(
      em,
      '... and in a topic (default IN)',
      s.projectId,
      marketingConsentSql('c', { id: s.optIn, defaultIn: true }),
    );
    console.log(
      `  against the rule before: x${(after / before).toFixed(2)}, with a topic x${(out / before).toFixed(2)} / x${(inn / before).toFixed(2)}`,
    );
    console.log(`signups, ${SIGNUPS} each after 100 to warm up (${loadNote()})`);
    await signups(bench.url, em);
  } finally {
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
