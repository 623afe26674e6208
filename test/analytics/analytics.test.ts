import { startStack, type TestStack } from '../helpers/stack';
import { Client } from 'pg';
import { throwawayDatabaseUrl } from '../helpers/database';
import { startWorker } from '../helpers/temporal';
import { waitForMail } from '../helpers/mail';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { recipient } from '../emails/helpers';
import { allOf, filter } from '../segments/helpers';
import { clickMail, get, openMail, rollupDrift, sendAndDeliver, type Delivered } from '../activity/helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

let stack: TestStack;
beforeAll(async () => {
  // Every session of this stack runs in a zone 5:45 ahead of UTC: buckets must still be whole UTC hours and days.
  const url = await throwawayDatabaseUrl();
  const db = new Client({ connectionString: url });
  await db.connect();
  await db.query(`alter database "${new URL(url).pathname.slice(1)}" set timezone to 'Asia/Kathmandu'`);
  await db.end();
  stack = await startStack({ env: { DATABASE_URL: url }, worker: startWorker, pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

interface Story {
  sender: SenderTenant;
  alpha: string;
  beta: string;
  transactional: Delivered[];
  started: Date;
}

const api = (sender: SenderTenant) => ({
  get: (path: string) => get(stack, sender.project, path),
  post: (path: string) => stack.http().post(path).set('Authorization', `Bearer ${sender.project.secret}`),
});

/** Creates the campaign and sends it now; `sent` waits until the worker and the pump have sent it all. */
async function sendCampaign(sender: SenderTenant, name: string, audience: object): Promise<{ id: string; sent: () => Promise<unknown> }> {
  const c = api(sender);
  const body = {
    name,
    subject: `${name} news`,
    body: '<p>See <a href="https://example.test/sale">the sale</a></p>',
    from: sender.from,
    ...audience,
  };
  const campaign = (await c.post('/campaigns').send(body).expect(201)).body.data;
  await c.post(`/campaigns/${campaign.id}/send`).send({}).expect(200);
  const sent = () =>
    waitFor(
      `${name} to be SENT`,
      async () => ((await c.get(`/campaigns/${campaign.id}`).expect(200)).body.status === 'SENT' ? true : undefined),
      120_000,
    );
  return { id: campaign.id, sent };
}

const delivered = async (to: string, subject: RegExp): Promise<Delivered> => ({
  emailId: '',
  contactId: '',
  to,
  mail: await waitForMail(stack.smtp, to, subject),
});

/**
 * Campaign Alpha to three subscribers, two of whom open it; campaign Beta to one, who clicks; two
 * transactional emails, one opened; custom events tracked through /v1/track.
 */
async function story(): Promise<Story> {
  const sender = await senderTenant(stack);
  const started = new Date();
  const c = api(sender);
  const readers = [recipient('x1'), recipient('x2'), recipient('x3')];
  for (const [i, email] of readers.entries())
    await c
      .post('/contacts')
      .send({ email, data: { group: i === 2 ? 'beta' : 'alpha' } })
      .expect(201);
  const alpha = await sendCampaign(sender, 'Alpha', { audienceType: 'ALL' });
  const beta = await sendCampaign(sender, 'Beta', {
    audienceType: 'FILTERED',
    audienceCondition: allOf(filter('data.group', 'equals', 'beta')),
  });
  await Promise.all([alpha.sent(), beta.sent()]);
  await openMail(stack, await delivered(readers[0]!, /Alpha/));
  await openMail(stack, await delivered(readers[1]!, /Alpha/));
  await clickMail(stack, await delivered(readers[2]!, /Beta/));
  const transactional = [
    await sendAndDeliver(stack, sender, recipient('t1'), 'Receipt'),
    await sendAndDeliver(stack, sender, recipient('t2'), 'Receipt'),
  ];
  await openMail(stack, transactional[0]!);
  const track = (event: string) =>
    stack.http().post('/v1/track').set('Authorization', `Bearer ${sender.project.public}`).send({ email: readers[0], event }).expect(200);
  for (const event of ['signup', 'signup', 'signup', 'purchase', 'purchase', 'login']) await track(event);
  return { sender, alpha: alpha.id, beta: beta.id, transactional, started };
}

let s: Story;
beforeAll(async () => {
  s = await story();
}, 300_000);

const analytics = (path: string) =>
  api(s.sender)
    .get(`/analytics/${path}`)
    .expect(200)
    .then((r) => r.body);

describe('GET /analytics/timeseries', () => {
  it('gives every UTC day of the range, zero where nothing happened, today with the counts', async () => {
    const body = await analytics('timeseries');
    expect(body.interval).toBe('day');
    const times = body.points.map((p: { time: string }) => Date.parse(p.time));
    expect(body.points).toHaveLength((Date.parse(body.to) - Date.parse(body.from)) / DAY);
    expect(body.points.length).toBe(31);
    expect(body.points.every((p: { time: string }) => p.time.endsWith('T00:00:00.000Z'))).toBe(true);
    expect(times.slice(1).map((t: number, i: number) => t - times[i])).toEqual(Array(30).fill(DAY));
    const today = { sent: 6, delivered: 0, opened: 3, clicked: 1, bounced: 0, complained: 0 };
    expect(body.points.at(-1)).toEqual({ time: new Date(Math.floor(Date.now() / DAY) * DAY).toISOString(), ...today });
    expect(body.points.slice(0, -1).every((p: Record<string, number>) => p.sent === 0 && p.opened === 0 && p.clicked === 0)).toBe(true);
    expect(body.totals).toEqual(today);
  });

  it('by UTC hour over an explicit range, the bounds widened to whole hours', async () => {
    const from = new Date(s.started.getTime() - 2 * HOUR + 60_000);
    const to = new Date(Date.now() + HOUR);
    const body = await analytics(`timeseries?interval=hour&from=${from.toISOString()}&to=${to.toISOString()}`);
    expect(body.from).toBe(new Date(Math.floor(from.getTime() / HOUR) * HOUR).toISOString());
    expect(body.to).toBe(new Date(Math.ceil(to.getTime() / HOUR) * HOUR).toISOString());
    expect(body.points.every((p: { time: string }) => p.time.endsWith(':00:00.000Z'))).toBe(true);
    expect(body.totals).toEqual({ sent: 6, delivered: 0, opened: 3, clicked: 1, bounced: 0, complained: 0 });
    const busy = body.points.filter((p: { sent: number }) => p.sent > 0).map((p: { time: string }) => Date.parse(p.time));
    expect(busy.every((t: number) => t >= Math.floor(s.started.getTime() / HOUR) * HOUR)).toBe(true);
  });

  it('answers a range that ends where or before it starts with no bucket', async () => {
    for (const range of ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from=2026-01-01T10:30:00Z&to=2026-01-01T10:30:00Z']) {
      const body = await analytics(`timeseries?interval=hour&${range}`);
      expect(body.points).toEqual([]);
      expect(body.from).toBe(body.to);
      expect(body.totals).toEqual({ sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0 });
    }
  });

  it('counts the latest 1000 buckets of a longer range, saying where they start', async () => {
    const to = '2021-01-01T00:00:00.000Z';
    const body = await analytics(`timeseries?interval=hour&from=2020-01-01T00:00:00Z&to=${to}`);
    expect(body.points).toHaveLength(1000);
    expect(body.to).toBe(to);
    expect(body.from).toBe(new Date(Date.parse(to) - 1000 * HOUR).toISOString());
    expect(body.points[0].time).toBe(body.from);
    const days = await analytics('timeseries?interval=day&from=0020-02-29T00:00:00Z');
    expect(days.points).toHaveLength(1000);
  });

  it('refuses bad parameters with 400', async () => {
    const c = api(s.sender);
    for (const query of ['interval=week', 'from=last-week', 'to=2026-13-01T00:00:00Z']) {
      const res = await c.get(`/analytics/timeseries?${query}`).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'BAD_REQUEST',
        statusCode: 400,
        errors: [expect.objectContaining({ field: expect.stringMatching(/^query\./) })],
      });
    }
  });
});

describe('GET /analytics/top-campaigns', () => {
  const names = (body: { campaigns: Array<{ name: string }> }) => body.campaigns.map((c) => c.name);

  it('ranks campaigns by the metric asked, with their counts and rates', async () => {
    const bySent = await analytics('top-campaigns');
    expect(bySent.metric).toBe('sent');
    expect(bySent.campaigns).toEqual([
      expect.objectContaining({
        id: s.alpha,
        name: 'Alpha',
        status: 'SENT',
        sentAt: expect.any(String),
        sent: 3,
        opened: 2,
        clicked: 0,
        openRate: 66.67,
        clickRate: 0,
      }),
      expect.objectContaining({ id: s.beta, name: 'Beta', sent: 1, opened: 0, clicked: 1, openRate: 0, clickRate: 100 }),
    ]);
    expect(names(await analytics('top-campaigns?metric=clickRate'))).toEqual(['Beta', 'Alpha']);
    expect(names(await analytics('top-campaigns?metric=opened&limit=1'))).toEqual(['Alpha']);
    expect(
      names(
        await analytics(
          `top-campaigns?from=${new Date(Date.now() + HOUR).toISOString()}&to=${new Date(Date.now() + 2 * HOUR).toISOString()}`,
        ),
      ),
    ).toEqual([]);
  });

  it('refuses an unknown metric or a bad limit', async () => {
    for (const query of ['metric=revenue', 'limit=0', 'limit=101', 'to=tomorrow']) {
      expect((await api(s.sender).get(`/analytics/top-campaigns?${query}`).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('GET /analytics/campaign-stats', () => {
  it("gives each campaign's figures, most recently sent first, a page at a time, with the totals of campaign email", async () => {
    const body = await analytics('campaign-stats');
    const sentAt = async (id: string) => Date.parse((await api(s.sender).get(`/campaigns/${id}`).expect(200)).body.sentAt);
    const newestFirst = (await sentAt(s.beta)) > (await sentAt(s.alpha)) ? ['Beta', 'Alpha'] : ['Alpha', 'Beta'];
    expect(body.data.map((c: { name: string }) => c.name)).toEqual(newestFirst);
    expect([body.total, body.page, body.pageSize, body.totalPages]).toEqual([2, 1, 20, 1]);
    expect(body.totals).toEqual({
      sent: 4,
      delivered: 0,
      opened: 2,
      clicked: 1,
      bounced: 0,
      complained: 0,
      openRate: 50,
      clickRate: 25,
      bounceRate: 0,
      deliveryRate: 0,
      complaintRate: 0,
    });
    const second = await analytics('campaign-stats?page=2&pageSize=1');
    expect([second.data.map((c: { name: string }) => c.name), second.total, second.totalPages]).toEqual([[newestFirst[1]], 2, 2]);
  });

  it('refuses a bad page', async () => {
    for (const query of ['page=0', 'pageSize=-1', 'page=x']) {
      expect((await api(s.sender).get(`/analytics/campaign-stats?${query}`).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('GET /analytics/top-events', () => {
  it('ranks custom event names, leaving out the events the service records', async () => {
    expect((await analytics('top-events')).events).toEqual([
      { name: 'signup', count: 3 },
      { name: 'purchase', count: 2 },
      { name: 'login', count: 1 },
    ]);
    expect((await analytics('top-events?limit=1')).events).toEqual([{ name: 'signup', count: 3 }]);
  });

  it('forgets events that are deleted', async () => {
    await api(s.sender).get('/events/names').expect(200);
    await stack.http().delete('/events/login').set('Authorization', `Bearer ${s.sender.project.secret}`).expect(200);
    expect((await analytics('top-events')).events.map((e: { name: string }) => e.name)).toEqual(['signup', 'purchase']);
  });

  it('refuses a bad limit or date, and finds nothing in an empty range', async () => {
    for (const query of ['limit=1000', 'from=2026-02-30T00:00:00Z']) {
      expect((await api(s.sender).get(`/analytics/top-events?${query}`).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
    const empty = await analytics('top-events?from=2026-02-01T00:00:00Z&to=2026-02-01T00:00:00Z');
    expect(empty.events).toEqual([]);
  });
});

describe('analytics of another project', () => {
  it('show nothing of this one', async () => {
    const other = await senderTenant(stack);
    const c = api(other);
    expect((await c.get('/analytics/timeseries').expect(200)).body.totals).toEqual({
      sent: 0,
      delivered: 0,
      opened: 0,
      clicked: 0,
      bounced: 0,
      complained: 0,
    });
    expect((await c.get('/analytics/top-campaigns').expect(200)).body.campaigns).toEqual([]);
    expect((await c.get('/analytics/campaign-stats').expect(200)).body).toMatchObject({ data: [], total: 0 });
    expect((await c.get('/analytics/top-events').expect(200)).body.events).toEqual([]);
  });
});

describe('the rollups', () => {
  it('are kept in UTC by sessions in another time zone, and equal the aggregates of the emails and events', async () => {
    const [zone] = await sql<{ zone: string }>(stack, `select current_setting('TimeZone') as zone`);
    expect(zone!.zone).toBe('Asia/Kathmandu');
    const hours = await sql<{ hour: Date }>(stack, 'select hour from email_stats where project_id = ?', [s.sender.project.id]);
    expect(hours.length).toBeGreaterThan(0);
    expect(hours.every((h) => new Date(h.hour).getTime() % HOUR === 0)).toBe(true);
    expect(await rollupDrift(stack, s.sender.project.id)).toEqual([]);
  });
});
