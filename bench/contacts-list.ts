/**
 * GET /contacts over BENCH_CONTACTS contacts (default 1,000,000) of one project: the first page (with its
 * `total`), later pages, another sort, a filter and email searches of different breadth. Each runs for
 * BENCH_SECONDS (default 10) over one connection, so the figures are per-request latencies. Target: first page
 * and search under 100 ms at p50.
 *
 * It seeds a project of its own in the `postwire_bench` database once (INSERT … SELECT generate_series;
 * a minute or two), reuses it on later runs, and starts the API on BENCH_PORT (default 3100) over it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';
import { Project } from '../src/modules/projects/entities';
import { issueKeys } from '../src/modules/projects/keys';
import { startApiProcess } from './lib/api-process';
import { openBenchDatabase } from './lib/database';
import { runBench, type BenchFigures } from './lib/run';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PROJECT = `contacts-list bench, ${CONTACTS} contacts`;

const FIRST = ['ada', 'alan', 'grace', 'linus', 'barbara', 'ken', 'dennis', 'margaret', 'edsger', 'donald'];
const LAST = ['lovelace', 'turing', 'hopper', 'torvalds', 'liskov', 'thompson', 'ritchie', 'hamilton', 'dijkstra', 'knuth', 'kay', 'wirth'];
const DOMAINS = ['gmail.test', 'outlook.test', 'acme.test', 'example.test', 'proton.test', 'fastmail.test', 'corp.test'];
const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(', ')}]`;

/** Emails like `grace.hopper123456@acme.test`, created over a year, one in ten unsubscribed. */
async function seed(em: EntityManager, projectId: string): Promise<void> {
  const started = performance.now();
  await em.execute(
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), t, t, ?,
            (${sqlArray(FIRST)})[i % ${FIRST.length} + 1] || '.' || (${sqlArray(LAST)})[(i / ${FIRST.length}) % ${LAST.length} + 1] || i
              || '@' || (${sqlArray(DOMAINS)})[i % ${DOMAINS.length} + 1],
            i % 10 <> 0, jsonb_build_object('plan', (array['free', 'pro', 'team'])[i % 3 + 1], 'age', i % 80)
     from generate_series(1, ?) i, lateral (select now() - interval '365 days' + i * (interval '365 days' / ?::float8) as t) ts`,
    [projectId, CONTACTS, CONTACTS],
  );
  await em.execute(
    `insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now()), (?, 'age', 'number', now())`,
    [projectId, projectId],
  );
  // A fresh visibility map lets the count read the index alone, as autovacuum would arrange in production.
  await em.execute('vacuum analyze contacts');
  console.log(`seeded ${CONTACTS} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The bench project with a fresh secret key (keys are stored as digests, so each run issues its own). */
async function benchProject(em: EntityManager): Promise<{ id: string; secret: string }> {
  let project = await em.findOne(Project, { name: PROJECT });
  if (!project) {
    const owner = await signup(em, `bench-${Date.now()}@bench.test`, 'bench password 123');
    project = (await createProject(em, owner.id, PROJECT)).project;
    await seed(em, project.id);
  }
  const secret = issueKeys(project);
  await em.flush();
  return { id: project.id, secret };
}

async function main(): Promise<void> {
  const db = await openBenchDatabase();
  try {
    const project = await benchProject(db.orm.em.fork());
    const api = await startApiProcess(Number(process.env.BENCH_PORT ?? 3100), db.url, { API_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const headers = { authorization: `Bearer ${project.secret}` };
      const get = async (path: string) =>
        (await (await fetch(`${api.url}${path}`, { headers })).json()) as { total: number; cursor: string | null };
      const second = (await get('/contacts')).cursor;
      const deep = await (async () => {
        let cursor = second;
        for (let i = 0; i < 50 && cursor; i++) cursor = (await get(`/contacts?limit=100&cursor=${cursor}`)).cursor;
        return cursor;
      })();
      const cases: Array<[string, string]> = [
        ['first page (limit 20, with total)', '/contacts'],
        ['first page, limit 100', '/contacts?limit=100'],
        ['second page (cursor)', `/contacts?cursor=${second}`],
        ['page after 5,000 rows (cursor)', `/contacts?cursor=${deep}`],
        ['first page sorted by email', '/contacts?sort=email&dir=asc'],
        ['first page, unsubscribed only', '/contacts?subscribed=false'],
        ['search, narrow', '/contacts?search=turing1234'],
        ['search, medium', '/contacts?search=ada.turing'],
        ['search, broad (a domain)', '/contacts?search=acme'],
      ];
      const results: Array<[string, number, BenchFigures]> = [];
      for (const [name, path] of cases) {
        const { total } = await get(path);
        results.push([
          name,
          total,
          await runBench({ name: `GET ${name}`, url: `${api.url}${path}`, headers, durationSeconds: SECONDS, connections: 1 }),
        ]);
      }
      console.log(`\n${CONTACTS} contacts; p50 / p99 in ms (total = matches reported on that page):`);
      for (const [name, total, f] of results) {
        console.log(`  ${name.padEnd(36)} ${String(f.latencyP50Ms).padStart(6)} / ${String(f.latencyP99Ms).padEnd(6)} total ${total}`);
      }
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
