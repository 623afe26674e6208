/**
 * What the reputation guardrails cost (docs/security.md): the check that runs after every bounce or complaint,
 * against the cost of recording that bounce (applySesNotification, the code POST /webhooks/sns runs) measured in
 * the same run; and the 5-minute sweep over BENCH_PROJECTS projects (default 1,000), each with a window of rollup
 * rows (7 days of hours). CPU per unit of the bench process and of its PostgreSQL backends (only this process
 * uses the database `postwire_bench_reputation`).
 */
import { randomUUID } from 'node:crypto';
import { createLogger } from '../src/logger';
import { createMailer } from '../src/mail/mailer';
import { judgeableProjects } from '../src/modules/reputation/figures';
import { checkAfterFeedback } from '../src/modules/reputation/guard';
import { applySesNotification } from '../src/modules/sns/ses';
import { BackendCpu } from './lib/backend-cpu';
import { loadNote, sendingBench, startSmtpSink } from './lib/sending';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1_000);
const BOUNCES = Number(process.env.BENCH_BOUNCES ?? 1_000);
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 10);

async function main(): Promise<void> {
  const sink = await startSmtpSink();
  const bench = await sendingBench('postwire_bench_reputation', { SMTP_URL: sink.url, REPUTATION_MIN_SENT: '500' });
  const mailer = createMailer(sink.url, 4);
  const deps = { orm: bench.orm, config: bench.config, mailer, logger: createLogger('warn', 'bench') };
  const em = () => bench.orm.em.fork();
  /** Process and database CPU milliseconds spent by `work`. */
  async function cpuOf(work: () => Promise<void>): Promise<{ process: number; database: number; wall: number }> {
    const database = new BackendCpu(bench.orm.em);
    await database.start();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await work();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { process: (cpu.user + cpu.system) / 1000, database: await database.elapsedMs(), wall };
  }
  try {
    // Other projects with a week of hourly rollup rows: what the sweep reads (seeded once).
    const [{ n }] = await em().execute<{ n: number }[]>(`select count(distinct project_id)::int as n from email_stats`);
    if (n < PROJECTS) {
      const t0 = performance.now();
      await em().execute(
        `with p as (insert into projects (id, created_at, updated_at, name, public_key, public_key_digest, secret_key_digest, secret_key_hint)
           select gen_random_uuid(), now(), now(), 'Seeded ' || g, 'pk_' || g || '_' || md5(random()::text), md5(random()::text),
             md5(random()::text), 'xxxx' from generate_series(1, ?) g returning id)
         insert into email_stats (project_id, hour, source_type, campaign_id, simulated, slot, sent, hard_bounced, complained)
         select p.id, date_trunc('hour', now(), 'UTC') - h * interval '1 hour', 'TRANSACTIONAL', null, false, 0,
           100, (random() * 8)::int, (random() * 0.3)::int
         from p cross join generate_series(0, 167) h`,
        [PROJECTS - n],
      );
      console.log(`seeded ${PROJECTS - n} projects with a week of rollup rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    // Emails of the bench project that left, to be bounced: one notification each, as SES would send.
    const ids = Array.from({ length: 2 * BOUNCES }, () => randomUUID());
    await em().execute(
      `insert into emails (id, created_at, updated_at, project_id, to_address, from_address, subject, html, size_bytes, source_type, status, sent_at)
       select u, now(), now(), ?, 'r-' || u || '@example.test', ?, 'S', '<p>x</p>', 100, 'TRANSACTIONAL', 'SENT', now()
       from unnest(?::uuid[]) u`,
      [bench.projectId, bench.from, `{${ids.join(',')}}`],
    );
    const bounce = (id: string) => ({
      notificationType: 'Bounce' as const,
      mail: { messageId: `ses-${id}`, commonHeaders: { messageId: `<${id}@bench.test>` } },
      bounce: { timestamp: new Date().toISOString(), bounceType: 'Transient' as const },
    });
    // Transient bounces: recorded and checked like permanent ones, without suspending the bench project midway.
    const record = await cpuOf(async () => {
      for (const id of ids.slice(0, BOUNCES)) await applySesNotification(em(), bounce(id));
    });
    const recordAndCheck = await cpuOf(async () => {
      for (const id of ids.slice(BOUNCES)) {
        const { judge } = await applySesNotification(em(), bounce(id));
        if (judge) await checkAfterFeedback(deps, judge);
      }
    });
    const per = (ms: number, count: number) => (ms / count).toFixed(3);
    const check = {
      process: recordAndCheck.process - record.process,
      database: recordAndCheck.database - record.database,
      wall: recordAndCheck.wall - record.wall,
    };
    console.log(
      `recording a bounce: ${per(record.process, BOUNCES)} ms process CPU, ${per(record.database, BOUNCES)} ms database CPU, ` +
        `${per(record.wall, BOUNCES)} ms wall`,
    );
    console.log(
      `the check after it: +${per(check.process, BOUNCES)} ms process CPU, +${per(check.database, BOUNCES)} ms database CPU, ` +
        `+${per(check.wall, BOUNCES)} ms wall (${((100 * (check.process + check.database)) / (record.process + record.database)).toFixed(0)}% of recording it)`,
    );

    let judged = 0;
    const sweep = await cpuOf(async () => {
      for (let i = 0; i < SWEEPS; i++) judged = (await judgeableProjects(em(), bench.config)).length;
    });
    console.log(
      `the sweep's statement over ${PROJECTS} projects (${judged} judged, ${PROJECTS * 168} rollup rows in the window): ` +
        `${per(sweep.wall, SWEEPS)} ms wall, ${per(sweep.database, SWEEPS)} ms database CPU per sweep, ` +
        `${per(sweep.database, SWEEPS * PROJECTS)} ms per project; ${loadNote()}`,
    );
  } finally {
    await mailer.close();
    sink.stop();
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
