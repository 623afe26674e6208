import { OUTBOX_CHANNEL } from '../../src/modules/outbox/channel';
import { sql } from '../helpers/seed';
import { senderTenant, type SenderTenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { startEngine, type Engine } from './engine';
import { linearWorkflow } from './helpers';

/**
 * Tenants are served fairly (decisions.md "Automations at scale", docs/automations.md "Fairness"): while one
 * project's backlog of executions drains, a single execution of a quiet project is not queued behind it. The
 * worker, the events outbox and the delivery pump of the real stack on the dev server, whose task queues
 * dispatch by fairness key; the full-size figures are the bench's (`npm run bench -- automation-fairness`).
 */

const BACKLOG = 300;

let engine: Engine;
beforeAll(async () => {
  engine = await startEngine({ timeSkipping: false });
});
afterAll(() => engine?.close());

/** An enabled automation that sends one email when its contact tracks `signup`. */
async function welcome(t: SenderTenant): Promise<void> {
  const template = await t.c
    .post('/templates')
    .send({ name: 'Welcome', subject: 'Welcome', body: '<p>Hello</p>', from: t.from })
    .expect(201);
  await linearWorkflow(t, [['SEND_EMAIL', { templateId: template.body.id }]]);
}

const emailsTo = (domain: string) => engine.stack.smtp.messages.filter((m) => m.to.some((to) => to.endsWith(domain))).length;

describe('fairness across projects', () => {
  it("sends a quiet project's first email while another project's backlog of executions drains", async () => {
    const { stack } = engine;
    const a = await senderTenant(stack, 'a');
    const b = await senderTenant(stack, 'b');
    await welcome(a);
    await welcome(b);

    // Project A's backlog: its contacts' trigger events, recorded at once.
    await sql(
      stack,
      `with c as (
         insert into contacts (id, created_at, updated_at, project_id, email, subscribed, data)
         select gen_random_uuid(), now(), now(), ?, 'a-' || i || '@a.example.test', true, '{}' from generate_series(1, ?) i returning id)
       insert into events (id, created_at, project_id, contact_id, name, data) select gen_random_uuid(), now(), ?, id, 'signup', '{}' from c`,
      [a.project.id, BACKLOG, a.project.id],
    );
    await sql(stack, 'select pg_notify(?, ?)', [OUTBOX_CHANNEL, '']);
    await waitFor("A's first emails", async () => (emailsTo('@a.example.test') > 0 ? true : undefined), 60_000);

    // B's one execution, while A's backlog is still queued.
    await b.c.post('/events/track').send({ email: 'b@b.example.test', event: 'signup' }).expect(200);
    const arrival = await waitFor(
      "B's email",
      async () => (emailsTo('@b.example.test') ? { aBefore: emailsTo('@a.example.test') } : undefined),
      60_000,
    );
    // Queued behind A, B's email would come after all of A's; served in turn, it comes while most are still queued.
    // (How soon, in seconds, is the fairness bench's figure: a wall-clock bound here would fail on a loaded machine.)
    expect(arrival.aBefore).toBeLessThan(BACKLOG / 2);

    await waitFor("all of A's emails", async () => (emailsTo('@a.example.test') >= BACKLOG ? true : undefined), 300_000);
  }, 400_000);
});
