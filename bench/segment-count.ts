/**
 * Counting a DYNAMIC segment with three filters (a data field, createdAt within, an event triggered) over
 * BENCH_CONTACTS contacts (default 1,000,000) of one project. Target: under 500 ms.
 *
 * It works in a database of its own, `postwire_bench` on the server of `npm start` (or DATABASE_URL's), which
 * it migrates and seeds once with INSERT … SELECT generate_series; later runs reuse the seed. Then it runs
 * the count BENCH_RUNS times (default 10) after one warm-up and prints each time, the median and the plan.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { initOrm } from '../src/app/orm';
import { migrate } from '../src/db/orm';
import { createProject } from '../src/modules/projects/service';
import { signup } from '../src/modules/users/service';
import { Project } from '../src/modules/projects/entities';
import { countMatching, matchingContactsSql, resolveForProject } from '../src/modules/filters/service';
import { ensureDatabase, ensurePostgres } from '../scripts/lib/postgres';
import { ports } from '../scripts/lib/ports';
import { seededAsHistory } from './lib/database';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const PROJECT = `segment-count bench, ${CONTACTS} contacts`;

const condition = {
  logic: 'AND',
  groups: [
    {
      filters: [
        { field: 'data.plan', operator: 'equals', value: 'pro' },
        { field: 'createdAt', operator: 'within', value: 30, unit: 'days' },
        { field: 'event.purchase', operator: 'triggered' },
      ],
    },
  ],
};

/**
 * One in ten contacts is on the pro plan, created_at spreads over a year, one in seven has purchased and
 * every other one has logged in (events the filter must skip).
 */
async function seed(em: EntityManager, projectId: string): Promise<void> {
  const started = performance.now();
  await em.execute(
    `insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
     select gen_random_uuid(), t, t, ?, 'c' || i || '@bench.test', i % 20 <> 0,
            jsonb_build_object('plan', (array['free', 'pro', 'team', 'free', 'free', 'team', 'free', 'free', 'team', 'free'])[i % 10 + 1],
                               'age', i % 80)
     from generate_series(1, ?) i, lateral (select now() - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute' as t) ts`,
    [projectId, CONTACTS],
  );
  await em.execute(
    `insert into contact_fields (project_id, key, type, created_at) values (?, 'plan', 'string', now()), (?, 'age', 'number', now())`,
    [projectId, projectId],
  );
  await em.execute(
    `insert into events (id, created_at, project_id, contact_id, name, data)
     select gen_random_uuid(), c.created_at + interval '1 hour', c.project_id, c.id, e.name, '{}'
     from contacts c
     cross join lateral (select 'purchase' as name where abs(hashtext(c.email)) % 7 = 0
                         union all select 'login' where abs(hashtext(c.email)) % 2 = 0) e
     where c.project_id = ?`,
    [projectId],
  );
  await seededAsHistory(em, projectId);
  await em.execute('analyze contacts; analyze events; analyze contact_fields');
  console.log(`seeded ${CONTACTS} contacts and their events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function benchProject(em: EntityManager): Promise<string> {
  const existing = await em.findOne(Project, { name: PROJECT });
  if (existing) return existing.id;
  const owner = await signup(em, `bench-${Date.now()}@bench.test`, 'bench password 123');
  const { project } = await createProject(em, owner.id, PROJECT);
  await seed(em, project.id);
  return project.id;
}

async function main(): Promise<void> {
  const pg = await ensurePostgres(ports.postgres, console.log);
  const orm = await initOrm(await ensureDatabase(pg.adminUrl, 'postwire_bench'), 2);
  try {
    await migrate(orm);
    const em = orm.em.fork();
    const projectId = await benchProject(em);
    const tree = await resolveForProject(em, projectId, condition, { strict: true });

    const times: number[] = [];
    let count = 0;
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      count = await countMatching(em, projectId, tree);
      if (run > 0) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(`segment count over ${CONTACTS} contacts: ${count} match`);
    console.log(
      `  ${RUNS} runs after a warm-up: min ${times[0]!.toFixed(1)} ms, median ${median.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
    );
    console.log(`  target < 500 ms: ${median < 500 ? 'met' : 'MISSED'}`);

    const q = matchingContactsSql(projectId, tree, new Date(), 'count(*)');
    const plan = await em.execute<Array<{ 'QUERY PLAN': string }>>(`explain (analyze, buffers off) ${q.sql}`, q.params);
    console.log(plan.map((row) => `  | ${row['QUERY PLAN']}`).join('\n'));
  } finally {
    await orm.close();
    await pg.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
