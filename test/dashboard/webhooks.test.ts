import { Webhook } from 'standardwebhooks';
import { WebhookServer, json, type ReceivedRequest } from '../automation/webhook-server';
import { checkPage, freshSession, logInAs, type BrowserSession } from '../helpers/browser';
import { dashboardSuite } from '../helpers/dashboard-suite';
import { startStack } from '../helpers/stack';
import { sql } from '../helpers/seed';
import { tenant, type Tenant } from '../helpers/tenants';
import { waitFor } from '../helpers/wait';
import { STREAM_WAIT_MS } from '../webhooks/helpers';

/** The receiver runs on loopback, which the SSRF guard refuses unless private addresses are allowed. */
const suite = dashboardSuite(() => startStack({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } }));

let receiver: WebhookServer;
beforeAll(async () => {
  receiver = await WebhookServer.start();
  receiver.on('/down', (_req, res) => json(res, 500, { error: 'down for maintenance' }));
});
afterAll(() => receiver.close());

/** The `type` of a request the receiver got, after checking its Standard Webhooks signature with `secret`. */
const signedType = (request: ReceivedRequest, secret: string) =>
  (new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string }).type;

async function openAs(t: Tenant): Promise<BrowserSession> {
  const session = await freshSession(suite.browser);
  await logInAs(session, t.user, t.project.id, '/');
  await session.page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await session.page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  return session;
}

describe('the dashboard: webhooks', () => {
  it('adds an endpoint with its secret shown once, sends signed test messages, pauses, rotates and deletes it', async () => {
    const t = await tenant(suite.stack);
    const session = await openAs(t);
    const { page } = session;
    await page.getByText('No endpoint yet.').waitFor();
    await checkPage(page, 'webhooks-empty');

    await page.getByLabel('URL').fill('ftp://files.example.test/in');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('alert').filter({ hasText: 'http or https URL' }).waitFor();
    await checkPage(page, 'webhooks-refused');

    await page.getByLabel('URL').fill(receiver.url('/hooks'));
    await page.getByLabel('Description (optional)').fill('Order system');
    await page.getByLabel('Events').fill('email.*\nsigned-up');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('status').filter({ hasText: 'is added' });
    const secret = (await added.locator('code').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('row').filter({ hasText: 'email.*, signed-up' }).getByText('Enabled').waitFor();
    await checkPage(page, 'webhooks-list');

    await page
      .getByRole('table')
      .getByRole('link', { name: receiver.url('/hooks') })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Order system' }).waitFor();
    expect(await page.locator('.webhook-secret code').textContent()).not.toBe(secret);
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByRole('status').filter({ hasText: 'Test message SUCCEEDED HTTP 200' }).waitFor();
    expect(receiver.to('/hooks').map((r) => signedType(r, secret))).toEqual(['webhook.test']);
    await page.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('SUCCEEDED').waitFor();
    await checkPage(page, 'webhook-endpoint');

    // Moved to an address that fails: the test message is FAILED with its answer, and the filter finds it alone.
    await page.getByLabel('URL').fill(receiver.url('/down'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByRole('status').filter({ hasText: 'Test message FAILED HTTP 500' }).waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('FAILED');
    await page.getByRole('row').filter({ hasText: 'HTTP 500' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'HTTP 200' }).waitFor({ state: 'detached' });
    await checkPage(page, 'webhook-endpoint-failed');

    await page.getByRole('button', { name: 'Pause delivery' }).click();
    await page.getByRole('status').filter({ hasText: 'Paused: events are kept' }).waitFor();
    const paused = await t.c.get(`/webhook-endpoints/${endpointIdOf(page.url())}`).expect(200);
    expect(paused.body).toMatchObject({ enabled: false, url: receiver.url('/down'), events: ['email.*', 'signed-up'] });
    await page.getByRole('button', { name: 'Enable delivery' }).click();
    await page.getByRole('status').filter({ hasText: 'Events are delivered as they happen.' }).waitFor();

    // A new secret signs from now on, beside the previous one for a day.
    await page.getByLabel('URL').fill(receiver.url('/hooks'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate secret' }).click();
    const rotated = (await page.getByRole('status').filter({ hasText: 'The new secret' }).locator('code').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByRole('status').filter({ hasText: 'Test message SUCCEEDED' }).waitFor();
    const last = receiver.to('/hooks').at(-1)!;
    expect([signedType(last, rotated), signedType(last, secret)]).toEqual(['webhook.test', 'webhook.test']);

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByRole('button', { name: 'Yes, delete endpoint' }).click();
    await page.getByText('No endpoint yet.').waitFor();
    await session.close();
  });

  it(
    'replays the selected events since a moment, and shows why a replay is refused',
    async () => {
      const t = await tenant(suite.stack);
      await t.c.post('/events/track').send({ email: 'ann@example.test', event: 'signed-up' }).expect(200);
      await t.c.post('/events/track').send({ email: 'ann@example.test', event: 'other' }).expect(200);
      await pastTheHorizon(t);
      const endpoint = await t.c
        .post('/webhook-endpoints')
        .send({ url: receiver.url('/replayed'), description: 'Replayed', events: ['signed-up'], enabled: false })
        .expect(201);
      const session = await openAs(t);
      const { page } = session;
      await page.getByRole('link', { name: receiver.url('/replayed') }).click();
      await page.getByRole('heading', { level: 1, name: 'Replayed' }).waitFor();

      await page.getByRole('button', { name: 'Replay' }).click();
      await page.getByRole('alert').filter({ hasText: 'since' }).waitFor();
      await checkPage(page, 'webhook-replay-refused');

      await page.getByLabel('Deliver again the events since').fill(localMinutesAgo(60));
      await page.getByRole('button', { name: 'Replay' }).click();
      await page.getByRole('status').filter({ hasText: '1 delivery queued.' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'signed-up' }).getByText('PENDING').waitFor();
      const log = await t.c.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`).expect(200);
      expect(log.body.data.map((d: { type: string }) => d.type)).toEqual(['signed-up']);
      await checkPage(page, 'webhook-replayed');
      await session.close();
    },
    STREAM_WAIT_MS + 60_000,
  );

  it('shows the API’s answer for an endpoint of another project', async () => {
    const [owner, other] = await Promise.all([tenant(suite.stack), tenant(suite.stack)]);
    const theirs = await other.c
      .post('/webhook-endpoints')
      .send({ url: receiver.url('/theirs') })
      .expect(201);
    const session = await freshSession(suite.browser);
    await logInAs(session, owner.user, owner.project.id, `/webhooks/${theirs.body.id}`);
    await session.page.getByRole('alert').filter({ hasText: 'not found' }).waitFor();
    expect(await session.page.getByText(receiver.url('/theirs')).count()).toBe(0);
    await session.close();
  });
});

/**
 * Waits until no transaction that could still commit before the project's events is open on the server. An
 * endpoint takes that horizon as its place in the stream when it is made (docs/webhooks.md "Order"), and replay
 * takes only what the stream has passed; other test files hold transactions open for seconds.
 */
const pastTheHorizon = (t: Tenant) =>
  waitFor(
    'the events to fall behind the oldest open transaction',
    async () => {
      const [row] = await sql<{ ahead: string }>(
        suite.stack,
        `select count(*) as ahead from events where project_id = ? and txid >= pg_snapshot_xmin(pg_current_snapshot())`,
        [t.project.id],
      );
      return Number(row!.ahead) === 0 ? true : undefined;
    },
    STREAM_WAIT_MS,
  );

const endpointIdOf = (url: string) => /#\/webhooks\/([0-9a-f-]{36})/.exec(url)![1]!;

/** A `datetime-local` value `minutes` ago, in the browser's (and this process's) time zone. */
function localMinutesAgo(minutes: number): string {
  const at = new Date(Date.now() - minutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
