/**
 * How fast the delivery pump drains queued email into a local SMTP server: BENCH_EMAILS emails (default
 * 20,000) of one project, each about 3 kB of HTML, DKIM-signed, through one pump in this process; the SMTP
 * server runs in a process of its own. Target: at least 800 emails/s. The project's sending rate is
 * unlimited here, so the figure is the pump's own capacity.
 *
 * Works in its own database, `postwire_bench_delivery` (or BENCH_DATABASE, e.g. to compare two versions of the
 * code side by side), on the server of `npm start` (or DATABASE_URL's). Besides the pump's CPU it prints that of
 * the PostgreSQL backends serving it.
 */
import { createLogger } from '../src/logger';
import { DeliveryPump } from '../src/modules/emails/delivery/pump';
import { CampaignBodies } from '../src/modules/campaigns/bodies';
import { enqueueEmails, type EmailDraft } from '../src/modules/emails/enqueue';
import { createMailer } from '../src/mail/mailer';
import { BackendCpu } from './lib/backend-cpu';
import { loadNote, sendingBench, startSmtpSink } from './lib/sending';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 20_000);
const CHUNK = 1_000;
const html = `<html><body>${'<p>Your weekly digest, with a few paragraphs of text to make it realistic.</p>'.repeat(36)}</body></html>`;

async function main(): Promise<void> {
  const sink = await startSmtpSink();
  const bench = await sendingBench(process.env.BENCH_DATABASE ?? 'postwire_bench_delivery', {
    SMTP_URL: sink.url,
    EMAIL_RATE_PER_SECOND: '0',
  });
  const mailer = createMailer(sink.url, bench.config.SMTP_MAX_CONNECTIONS);
  try {
    // Whatever an interrupted earlier run left is not this run's work.
    await bench.orm.em.fork().execute(`delete from emails where status = 'PENDING'`);
    const started = performance.now();
    for (let i = 0; i < EMAILS; i += CHUNK) {
      const drafts: EmailDraft[] = Array.from({ length: Math.min(CHUNK, EMAILS - i) }, (_, j) => ({
        projectId: bench.projectId,
        contactId: null,
        to: { email: `reader-${i + j}@example.test`, name: 'A Reader' },
        from: { email: bench.from, name: 'Bench' },
        subject: `Digest ${i + j}`,
        html,
        sourceType: 'CAMPAIGN',
        marketing: true,
      }));
      await enqueueEmails(bench.orm.em.fork(), drafts);
    }
    console.log(`queued ${EMAILS} emails in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const services = { orm: bench.orm, config: bench.config, mailer, logger: createLogger('warn', 'bench') };
    const pump = new DeliveryPump(services, new CampaignBodies(services));
    // PostgreSQL's side of the pump: every backend on this database (only this process uses it), the gate's and
    // hand-over's connections among them, which the pump opens as it starts.
    const database = new BackendCpu(bench.orm.em);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await pump.start();
    await database.start();
    const em = bench.orm.em.fork();
    for (;;) {
      const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from emails where project_id = ? and status = 'PENDING'`, [
        bench.projectId,
      ]);
      if (Number(row!.n) === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const dbMs = await database.elapsedMs();
    await pump.stop();
    const [sent] = await em.execute<{ n: string }[]>(`select count(*) as n from emails where project_id = ? and status = 'SENT'`, [
      bench.projectId,
    ]);
    const rate = Number(sent!.n) / seconds;
    console.log(
      `delivered ${sent!.n} of ${EMAILS} emails in ${seconds.toFixed(1)} s: ${rate.toFixed(0)} emails/s (target >= 800: ${rate >= 800 ? 'met' : 'MISSED'})`,
    );
    // CPU per email hardly depends on what else the machine runs, unlike the rate.
    console.log(
      `  pump process CPU ${((cpu.user + cpu.system) / 1000 / Number(sent!.n)).toFixed(2)} ms per email, its PostgreSQL backends ` +
        `${(dbMs / Number(sent!.n)).toFixed(2)} ms per email; ${loadNote()}`,
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
