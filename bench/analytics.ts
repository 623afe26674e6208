/**
 * Analytics and the activity feed over a big project: BENCH_EMAILS email records (default 10,000,000) and
 * BENCH_EVENTS events (default 20,000,000) in one project, spread over the last year. Target: every endpoint
 * under 300 ms at the median.
 *
 * It seeds a database of its own, `postwire_bench_analytics` (bench/lib/database.ts), once with INSERT …
 * SELECT generate_series in chunks, the rollup triggers of migration 0024 running as they would, and the
 * plain indexes of emails and events dropped meanwhile and built again at the end (the seed prints its
 * time and the disk it takes); later runs reuse it. A seed that was interrupted is not reused: drop the
 * database and run again. Then it starts the API on that database (its own process, rate limit off) and loads
 * each endpoint from one connection for BENCH_SECONDS (default 5), printing the latency figures.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { openBenchDatabase, seededAsHistory } from './lib/database';
import { compactRollups, FOLD_AFTER_MS } from '../src/modules/analytics/compact-rollups';
import { startApiProcess } from './lib/api-process';
import { runBench, type BenchFigures } from './lib/run';
import { Project } from '../src/modules/projects/entities';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 10_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3931);
const CONTACTS = 100_000;
const CAMPAIGNS = 200;
const CHUNK = 1_000_000;
const PROJECT = `analytics bench, ${EMAILS} emails, ${EVENTS} events`;
const PASSWORD = 'bench password 123';
const TARGET_MS = 300;

/** i-th row's time: spread evenly over the last 365 days. */
const spread = (total: number) => `now() - interval '365 days' + (i::float8 / ${total}) * interval '365 days'`;

async function seedEmails(em: EntityManager, projectId: string): Promise<void> {
  // 70 % campaign mail (one email per campaign and contact, in a burst at its send time), 25 % transactional,
  // 5 % workflow; 3 % failed,
  // the others sent, 90 % of those delivered, 30 % opened, 8 % clicked, 1 % bounced.
  for (let from = 1; from <= EMAILS; from += CHUNK) {
    const to = Math.min(EMAILS, from + CHUNK - 1);
    await em.execute(
      `insert into emails (id, created_at, updated_at, project_id, contact_id, to_address, from_address, subject, html, size_bytes,
         campaign_id, workflow_execution_id, workflow_step_id, source_type, status, sent_at, delivered_at, opened_at, clicked_at,
         bounced_at, failed_at)
       select gen_random_uuid(), t, t, ?, c.id, c.email, 'news@bench.test', 'Bench ' || (i % 1000), '<p>x</p>', 500,
         case when kind = 'CAMPAIGN' then cp.id end,
         case when kind = 'WORKFLOW' then gen_random_uuid() end, case when kind = 'WORKFLOW' then gen_random_uuid() end,
         kind,
         case when i % 100 < 3 then 'FAILED' when i % 100 = 3 then 'BOUNCED' when i % 100 < 12 then 'CLICKED' when i % 100 < 34 then 'OPENED'
              when i % 100 < 90 then 'DELIVERED' else 'SENT' end,
         case when i % 100 >= 3 then t + interval '1 minute' end,
         case when i % 100 >= 3 and i % 100 < 90 then t + interval '2 minutes' end,
         case when i % 100 >= 4 and i % 100 < 34 then t + interval '2 hours' end,
         case when i % 100 >= 4 and i % 100 < 12 then t + interval '3 hours' end,
         case when i % 100 = 3 then t + interval '5 minutes' end,
         case when i % 100 < 3 then t + interval '1 minute' end
       from generate_series(?::bigint, ?::bigint) i
       cross join lateral (select case when i % 20 < 14 then 'CAMPAIGN' when i % 20 < 19 then 'TRANSACTIONAL' else 'WORKFLOW' end as kind) k
       -- A campaign goes out within about an hour of its send time; the other mail spreads over the year.
       cross join lateral (select case when kind = 'CAMPAIGN'
         then now() - ((i % ${CAMPAIGNS}) * 365.0 / ${CAMPAIGNS}) * interval '1 day' + ((i / ${CAMPAIGNS}) % ${CONTACTS}) * interval '100 milliseconds'
         else ${spread(EMAILS)} end as t) ts
       join bench_contacts c on c.seq = (i / ${CAMPAIGNS}) % ${CONTACTS}
       join bench_campaigns cp on cp.seq = i % ${CAMPAIGNS}`,
      [projectId, from, to],
    );
    console.log(`  emails ${to.toLocaleString()} / ${EMAILS.toLocaleString()}`);
  }
}

async function seedEvents(em: EntityManager, projectId: string): Promise<void> {
  // 40 % email.sent, 25 % email.delivery, 15 % email.open, 4 % email.click, 16 % custom events under 20 names.
  for (let from = 1; from <= EVENTS; from += CHUNK) {
    const to = Math.min(EVENTS, from + CHUNK - 1);
    await em.execute(
      `insert into events (id, created_at, project_id, contact_id, name, data)
       select gen_random_uuid(), t, ?, c.id, n.name,
         case when n.name like 'email.%' then jsonb_build_object('emailId', gen_random_uuid(), 'subject', 'Bench', 'from', 'news@bench.test', 'sourceType', 'CAMPAIGN')
              else '{}'::jsonb end
       from generate_series(?::bigint, ?::bigint) i
       cross join lateral (select ${spread(EVENTS)} as t) k
       cross join lateral (select case when i % 100 < 40 then 'email.sent' when i % 100 < 65 then 'email.delivery'
         when i % 100 < 80 then 'email.open' when i % 100 < 84 then 'email.click' else 'custom-' || (i % 20) end as name) n
       join bench_contacts c on c.seq = i % ${CONTACTS}`,
      [projectId, from, to],
    );
    await seededAsHistory(em, projectId);
    console.log(`  events ${to.toLocaleString()} / ${EVENTS.toLocaleString()}`);
  }
}

/**
 * Runs `fill` without the indexes of the tables that back no constraint, then builds them again as they
 * were: one sort per index instead of a random insert per row and index.
 */
async function withoutPlainIndexes(em: EntityManager, tables: string[], fill: () => Promise<void>): Promise<void> {
  const indexes = await em.execute<Array<{ name: string; def: string }>>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class t on t.oid = i.indrelid
     where t.relname in (${tables.map((t) => `'${t}'`).join(', ')}) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  for (const index of indexes) await em.execute(`drop index ${index.name}`);
  try {
    await fill();
  } finally {
    const started = performance.now();
    // One statement string, so the setting applies on the connection that builds the index.
    for (const index of indexes) await em.execute(`set maintenance_work_mem = '1GB'; ${index.def}`);
    console.log(`  rebuilt ${indexes.length} indexes in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}

async function seed(em: EntityManager, projectId: string): Promise<void> {
  const started = performance.now();
  // Ordinals of the seeded contacts and campaigns, so that row i picks its contact and campaign by key.
  await em.execute(`drop table if exists bench_contacts; drop table if exists bench_campaigns`);
  await em.execute(`create table bench_contacts (seq integer primary key, id uuid not null, email text not null)`);
  await em.execute(`create table bench_campaigns (seq integer primary key, id uuid not null)`);
  await em.execute(
    `with c as (insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
       select gen_random_uuid(), now(), now(), ?, 'c' || i || '@bench.test', true, '{}' from generate_series(0, ${CONTACTS - 1}) i
       returning id, email)
     insert into bench_contacts select substring(email from 2 for position('@' in email) - 2)::int, id, email from c`,
    [projectId],
  );
  await em.execute(
    `with c as (insert into campaigns (id, created_at, updated_at, project_id, name, subject, body, from_address, type, status, audience_type, sent_at)
       select gen_random_uuid(), t, t, ?, 'Campaign ' || i, 'Bench', '<p>x</p>', 'news@bench.test', 'MARKETING', 'SENT', 'ALL', t
       from generate_series(0, ${CAMPAIGNS - 1}) i cross join lateral (select now() - (i * 365.0 / ${CAMPAIGNS}) * interval '1 day' as t) k
       returning id, name)
     insert into bench_campaigns select substring(name from 10)::int, id from c`,
    [projectId],
  );
  await withoutPlainIndexes(em, ['emails', 'events'], async () => {
    await seedEmails(em, projectId);
    await seedEvents(em, projectId);
  });
  await em.execute(`drop table bench_contacts; drop table bench_campaigns`);
  // What the workers' housekeeping does to hours two hours past (the slots of
  // docs/contributors/analytics.md "Rollups (migrations 0024, 0040)").
  await compactRollups(em, new Date(Date.now() - FOLD_AFTER_MS));
  for (const table of ['emails', 'events', 'email_stats', 'event_stats']) await em.execute(`vacuum analyze ${table}`);
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function benchProject(em: EntityManager): Promise<{ projectId: string; email: string }> {
  const existing = await em.findOne(Project, { name: PROJECT });
  if (existing) {
    const [owner] = await em.execute<Array<{ email: string }>>(
      `select u.email from users u join project_members m on m.user_id = u.id where m.project_id = ? and m.role = 'OWNER'`,
      [existing.id],
    );
    return { projectId: existing.id, email: owner!.email };
  }
  const email = `analytics-bench-${Date.now()}@bench.test`;
  const owner = await signup(em, email, PASSWORD);
  // Named for reuse only once the seed is complete, so that an interrupted seed is never measured.
  const { project } = await createProject(em, owner.id, `${PROJECT} (seeding)`);
  await seed(em, project.id);
  await em.execute('update projects set name = ? where id = ?', [PROJECT, project.id]);
  return { projectId: project.id, email };
}

async function printDisk(em: EntityManager): Promise<void> {
  const rows = await em.execute<Array<{ relation: string; size: string }>>(
    `select relation, pg_size_pretty(pg_total_relation_size(relation)) as size
     from unnest(array['emails', 'events', 'email_stats', 'event_stats']) relation
     union all select 'database', pg_size_pretty(pg_database_size(current_database()))`,
  );
  console.log(`disk: ${rows.map((r) => `${r.relation} ${r.size}`).join(', ')}`);
  const [counts] = await em.execute<Array<{ email_stats: string; event_stats: string }>>(
    `select (select count(*) from email_stats) as email_stats, (select count(*) from event_stats) as event_stats`,
  );
  console.log(`rollup rows: email_stats ${counts!.email_stats}, event_stats ${counts!.event_stats}`);
}

async function main(): Promise<void> {
  const db = await openBenchDatabase('postwire_bench_analytics');
  try {
    const em = db.orm.em.fork();
    const { projectId, email } = await benchProject(em);
    await printDisk(em);
    const api = await startApiProcess(PORT, db.url, { API_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const login = await fetch(`${api.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith('postwire_session='))
        ?.split(';')[0];
      if (!cookie) throw new Error(`login answered ${login.status}`);
      const headers = { cookie, 'x-project-id': projectId };
      const year = `from=${new Date(Date.now() - 365 * 86_400_000).toISOString()}`;
      const paths = [
        '/analytics/timeseries',
        `/analytics/timeseries?${year}`,
        `/analytics/timeseries?interval=hour&from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}`,
        '/analytics/top-campaigns',
        `/analytics/top-campaigns?metric=openRate&${year}`,
        `/analytics/campaign-stats?${year}`,
        '/analytics/top-events',
        `/analytics/top-events?${year}`,
        '/activity',
        '/activity?type=CLICKED,FAILED',
        '/activity/stats',
        '/activity/recent-count',
        '/activity/types',
        '/activity/upcoming',
      ];
      const results: BenchFigures[] = [];
      for (const path of paths) {
        const first = await fetch(`${api.url}${path}`, { headers });
        if (!first.ok) throw new Error(`${path} answered ${first.status}: ${await first.text()}`);
        results.push(await runBench({ name: path, url: `${api.url}${path}`, headers, connections: 1, durationSeconds: SECONDS }));
      }
      console.log(
        `\nmedian latency per endpoint (target < ${TARGET_MS} ms), ${EMAILS.toLocaleString()} emails and ${EVENTS.toLocaleString()} events:`,
      );
      for (const r of results)
        console.log(
          `  ${r.latencyP50Ms < TARGET_MS ? 'met   ' : 'MISSED'} p50 ${String(r.latencyP50Ms).padStart(4)} ms  p99 ${String(r.latencyP99Ms).padStart(4)} ms  ${r.name}`,
        );
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
