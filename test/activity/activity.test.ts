import { TAGGED_EVENT } from '../../src/modules/activity/feed';
import { startStack, type TestStack } from '../helpers/stack';
import { recipient, send, settled } from '../emails/helpers';
import { sql } from '../helpers/seed';
import { waitFor } from '../helpers/wait';
import { LINK, clickMail, get, openMail, rollupDrift, sendAndDeliver, sendAndFail, type Delivered } from './helpers';
import { senderTenant, type SenderTenant } from '../helpers/tenants';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ pump: true, terminateWorkflows: true });
});
afterAll(() => stack?.close());

const UUID = /^[0-9a-f-]{36}$/;

interface Story {
  sender: SenderTenant;
  a: Delivered;
  b: Delivered;
  failed: { emailId: string; contactId: string; to: string };
  /** Just before the first send and just after the last event. */
  started: Date;
  ended: Date;
}

/** Two emails sent, the first opened, the second clicked, a third refused by the mail server: five activities. */
async function story(): Promise<Story> {
  const sender = await senderTenant(stack);
  const started = new Date();
  const a = await sendAndDeliver(stack, sender, recipient('ann'), 'First');
  const b = await sendAndDeliver(stack, sender, recipient('bob'), 'Second');
  await openMail(stack, a);
  await clickMail(stack, b);
  const to = recipient('gone');
  const failed = { ...(await sendAndFail(stack, sender, to)), to };
  return { sender, a, b, failed, started, ended: new Date() };
}

let s: Story;
beforeAll(async () => {
  s = await story();
}, 120_000);

const feed = (query = '') => get(stack, s.sender.project, `/activity${query}`);

describe('GET /activity', () => {
  it('lists sends, opens, clicks and failures, newest first, with their contact and email', async () => {
    const res = await feed().expect(200);
    expect(res.body.total).toBe(5);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.cursor).toBeNull();
    expect(res.body.data.map((i: { type: string; contact: { email: string } | null }) => [i.type, i.contact?.email])).toEqual([
      ['FAILED', s.failed.to],
      ['CLICKED', s.b.to],
      ['OPENED', s.a.to],
      ['SENT', s.b.to],
      ['SENT', s.a.to],
    ]);
    const [failed, clicked] = res.body.data;
    expect(clicked).toEqual({
      id: expect.stringMatching(UUID),
      type: 'CLICKED',
      occurredAt: expect.any(String),
      contact: { id: s.b.contactId, email: s.b.to },
      email: {
        id: s.b.emailId,
        subject: 'Second',
        from: s.sender.from,
        templateId: null,
        campaignId: null,
        sourceType: 'TRANSACTIONAL',
        tags: {},
      },
      details: { link: LINK },
    });
    expect(failed).toMatchObject({
      id: s.failed.emailId,
      type: 'FAILED',
      contact: { id: s.failed.contactId, email: s.failed.to },
      email: { id: s.failed.emailId, subject: 'Never arrives', sourceType: 'TRANSACTIONAL' },
      details: { to: s.failed.to, error: expect.stringMatching(/550.*No such user here/) },
    });
    const times = res.body.data.map((i: { occurredAt: string }) => Date.parse(i.occurredAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(times.every((t: number) => t >= s.started.getTime() && t <= s.ended.getTime())).toBe(true);
  });

  it('pages with the cursor: no item twice or missed, total on the first page only', async () => {
    const all = (await feed().expect(200)).body.data;
    const first = (await feed('?limit=2').expect(200)).body;
    expect([first.data.length, first.hasMore, first.total]).toEqual([2, true, 5]);
    const second = (await feed(`?limit=2&cursor=${first.cursor}`).expect(200)).body;
    expect([second.data.length, second.hasMore, second.total]).toEqual([2, true, 0]);
    const third = (await feed(`?limit=2&cursor=${second.cursor}`).expect(200)).body;
    expect([third.data.length, third.hasMore, third.total, third.cursor]).toEqual([1, false, 0, null]);
    expect([...first.data, ...second.data, ...third.data]).toEqual(all);
  });

  it('filters by type (comma-separated or repeated, any case) and by contact', async () => {
    const types = async (query: string) => {
      const body = (await feed(query).expect(200)).body;
      return [body.total, body.data.map((i: { type: string }) => i.type)];
    };
    expect(await types('?type=opened,CLICKED')).toEqual([2, ['CLICKED', 'OPENED']]);
    expect(await types('?type=SENT&type=FAILED')).toEqual([3, ['FAILED', 'SENT', 'SENT']]);
    expect(await types('?type=BOUNCED')).toEqual([0, []]);
    expect(await types(`?contactId=${s.a.contactId}`)).toEqual([2, ['OPENED', 'SENT']]);
    expect(await types(`?contactId=${s.failed.contactId}`)).toEqual([1, ['FAILED']]);
    expect(await types(`?contactId=${s.b.contactId}&type=SENT`)).toEqual([1, ['SENT']]);
    const paged = (await feed(`?contactId=${s.a.contactId}&limit=1`).expect(200)).body;
    const rest = (await feed(`?contactId=${s.a.contactId}&limit=1&cursor=${paged.cursor}`).expect(200)).body;
    expect([paged.data[0].type, rest.data[0].type, rest.hasMore]).toEqual(['OPENED', 'SENT', false]);
  });

  it('refuses bad parameters with 400 and the field, and a cursor of another list', async () => {
    const before = (await feed().expect(200)).body;
    for (const [query, field] of [
      ['?type=SHIPPED', 'query.type'],
      ['?type=', 'query.type'],
      ['?contactId=42', 'query.contactId'],
      ['?limit=0', 'query.limit'],
      ['?limit=many', 'query.limit'],
    ]) {
      const res = await feed(query!).expect(400);
      expect(res.body.error).toMatchObject({
        code: 'BAD_REQUEST',
        errors: [expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${field}`)) })],
      });
    }
    expect((await feed('?cursor=not-a-cursor').expect(400)).body.error.message).toBe('Invalid cursor');
    const events = (await get(stack, s.sender.project, '/events?limit=1').expect(200)).body;
    expect((await feed(`?cursor=${events.cursor}`).expect(400)).body.error.code).toBe('BAD_REQUEST');
    expect((await feed().expect(200)).body).toEqual(before);
  });

  it("shows only the project's own activity", async () => {
    const other = await senderTenant(stack);
    const theirs = await sendAndDeliver(stack, other, recipient('theirs'), 'Other project');
    const mine = (await feed().expect(200)).body;
    expect(mine.total).toBe(5);
    expect(mine.data.some((i: { contact: { id: string } | null }) => i.contact?.id === theirs.contactId)).toBe(false);
    expect((await feed(`?contactId=${theirs.contactId}`).expect(200)).body).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    const their = (await get(stack, other.project, '/activity').expect(200)).body;
    expect(their.data.map((i: { type: string; email: { id: string } }) => [i.type, i.email.id])).toEqual([['SENT', theirs.emailId]]);
  });

  it('needs a secret key', async () => {
    expect((await stack.http().get('/activity')).status).toBe(401);
    expect((await stack.http().get('/activity').set('Authorization', `Bearer ${s.sender.project.public}`)).body.error.code).toBe(
      'INVALID_API_KEY',
    );
  });
});

describe('a deferral (a soft bounce: the server said try again later)', () => {
  it('is DEFERRED activity with the reason, the attempt and when the next one is due, then SENT when the server takes it', async () => {
    const sender = await senderTenant(stack);
    const to = recipient('busy');
    stack.smtp.refuseMessage(to, 451, '4.2.0 Mailbox temporarily unavailable');
    const res = await send(stack, sender.project, {
      to,
      from: sender.from,
      subject: 'Soon',
      body: '<p>Hi</p>',
      tags: { order: 'D:1' },
    }).expect(200);
    const [{ email: emailId, contact }] = res.body.data.emails;
    const [first] = await waitFor(
      'the first deferral',
      async () => {
        const page = (await get(stack, sender.project, '/activity?type=deferred').expect(200)).body;
        return page.data.length > 0 ? page.data.slice(-1) : undefined;
      },
      60_000,
    );
    expect(first).toEqual({
      id: expect.stringMatching(UUID),
      type: 'DEFERRED',
      occurredAt: expect.any(String),
      contact: { id: contact.id, email: to },
      email: expect.objectContaining({ id: emailId, subject: 'Soon', sourceType: 'TRANSACTIONAL', tags: { order: 'D:1' } }),
      details: { reason: expect.stringMatching(/451.*Mailbox temporarily unavailable/), attempt: 1, retryAt: expect.any(String) },
    });
    // The retry time is the one the queue was given, after the deferral, written as the API writes instants.
    expect(new Date(first.details.retryAt).toISOString()).toBe(first.details.retryAt);
    expect(Date.parse(first.details.retryAt)).toBeGreaterThan(Date.parse(first.occurredAt) - 1_000);
    const [event] = await sql<{ name: string }>(stack, `select name from events where id = ?`, [first.id]);
    expect(event).toEqual({ name: 'email.deferred' });

    // While it waits, the email says when it is tried again: a deferral's retryAt (the latest; another attempt
    // may have been made and put off meanwhile), as the queue has it. Null while an attempt is under way.
    const waiting = await waitFor(
      'the email awaiting its retry',
      async () => {
        const view = (await get(stack, sender.project, `/v1/emails/${emailId}`).expect(200)).body.data;
        return view.nextAttemptAt ? view : undefined;
      },
      60_000,
    );
    expect(waiting).toMatchObject({ id: emailId, status: 'PENDING', sentAt: null });
    const retries = await sql<{ retry_at: string }>(
      stack,
      `select data->>'retryAt' as retry_at from events where name = 'email.deferred' and data->>'emailId' = ?`,
      [emailId],
    );
    expect(retries.map((r) => r.retry_at)).toContain(waiting.nextAttemptAt);

    stack.smtp.accept(to);
    expect(await settled(stack, emailId, 60_000)).toMatchObject({ status: 'SENT' });
    expect((await get(stack, sender.project, `/v1/emails/${emailId}`).expect(200)).body.data).toMatchObject({
      status: 'SENT',
      nextAttemptAt: null,
    });
    const tagged = (await get(stack, sender.project, '/activity?tag=order:D:1').expect(200)).body;
    expect(tagged.data[0].type).toBe('SENT');
    expect(tagged.data.slice(1).every((i: { type: string }) => i.type === 'DEFERRED')).toBe(true);
    const counts = (await get(stack, sender.project, '/activity/stats').expect(200)).body.counts;
    expect(counts).toMatchObject({ SENT: 1, DEFERRED: tagged.data.length - 1 });
    // Another project sees none of it.
    expect((await feed('?type=DEFERRED').expect(200)).body.data).toEqual([]);
  });
});

describe('the tags index', () => {
  // Every email event carries its email's tags, `{}` when it has none: only non-empty ones are indexed, and the
  // feed's condition must name the index's predicate for the planner to use it (migration 0156).
  it('is what the feed reads a tag through', async () => {
    const plan = await stack.deps.orm.em.fork().transactional(async (tx) => {
      await tx.execute('set local enable_seqscan = off');
      return tx.execute<Array<{ 'QUERY PLAN': string }>>(`explain select count(*) from events e where ${TAGGED_EVENT}`, [
        JSON.stringify({ order: 'D:1' }),
      ]);
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('events_tags_index');
  });
});

describe('GET /activity/stats', () => {
  const stats = (query = '') => get(stack, s.sender.project, `/activity/stats${query}`);
  const expected = {
    SENT: 2,
    DELIVERED: 0,
    OPENED: 1,
    CLICKED: 1,
    BOUNCED: 0,
    COMPLAINED: 0,
    RECEIVED: 0,
    SUPPRESSED: 0,
    DEFERRED: 0,
    FAILED: 1,
  };

  it('counts each type exactly, in the default 30 days (partial hours read from the rows)', async () => {
    const res = await stats().expect(200);
    expect(res.body).toMatchObject({ total: 5, counts: expected });
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(30 * 24 * 3600 * 1000);
  });

  it('counts whole hours from the rollups and ranges without activity as zero', async () => {
    const hour = 3600 * 1000;
    const from = new Date(Math.floor(s.started.getTime() / hour) * hour - hour).toISOString();
    const to = new Date(Math.ceil(s.ended.getTime() / hour) * hour + hour).toISOString();
    expect((await stats(`?from=${from}&to=${to}`).expect(200)).body).toEqual({ from, to, total: 5, counts: expected });
    const after = (await stats(`?from=${s.ended.toISOString()}&to=${to}`).expect(200)).body;
    expect(after.total).toBe(0);
    const before = (await stats(`?from=2020-01-01T00:00:00Z&to=${s.started.toISOString()}`).expect(200)).body;
    expect(before.total).toBe(0);
  });

  it('refuses a malformed date', async () => {
    for (const query of ['?from=yesterday', '?to=2026-13-01T00:00:00Z']) {
      expect((await stats(query).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
  });

  it('counts nothing in a range that ends where or before it starts, which the document allows', async () => {
    const at = s.ended.toISOString();
    for (const query of [`?from=${s.started.toISOString()}&to=${s.started.toISOString()}`, `?from=${at}&to=${s.started.toISOString()}`]) {
      const body = (await stats(query).expect(200)).body;
      expect(body).toMatchObject({ total: 0 });
      expect(body.from).toBe(body.to);
    }
    expect((await stats('?from=2999-01-01T00:00:00Z').expect(200)).body.total).toBe(0);
  });

  it('counts only the project', async () => {
    const other = await senderTenant(stack);
    expect((await get(stack, other.project, '/activity/stats').expect(200)).body.total).toBe(0);
  });
});

describe('GET /activity/recent-count', () => {
  const recent = (query = '') => get(stack, s.sender.project, `/activity/recent-count${query}`);

  it('counts activity since an instant (default the last 24 hours), of some types if asked', async () => {
    expect((await recent().expect(200)).body.count).toBe(5);
    const since = s.started.toISOString();
    const res = await recent(`?since=${since}`).expect(200);
    expect(res.body).toEqual({ count: 5, since, until: expect.any(String) });
    expect((await recent(`?since=${s.ended.toISOString()}`).expect(200)).body.count).toBe(0);
    expect((await recent(`?since=${since}&type=SENT,CLICKED`).expect(200)).body.count).toBe(3);
  });

  it('refuses a malformed instant and unknown types; counts nothing since an instant to come', async () => {
    for (const query of ['?since=soon', '?type=READ']) {
      expect((await recent(query).expect(400)).body.error.code).toBe('BAD_REQUEST');
    }
    expect((await recent('?since=2999-01-01T00:00:00Z').expect(200)).body).toMatchObject({ count: 0, since: '2999-01-01T00:00:00.000Z' });
  });
});

describe('GET /activity/types', () => {
  it('lists the types the project has, with their counts, in feed order', async () => {
    expect((await get(stack, s.sender.project, '/activity/types').expect(200)).body).toEqual({
      types: [
        { type: 'SENT', count: 2 },
        { type: 'OPENED', count: 1 },
        { type: 'CLICKED', count: 1 },
        { type: 'FAILED', count: 1 },
      ],
    });
    const other = await senderTenant(stack);
    expect((await get(stack, other.project, '/activity/types').expect(200)).body).toEqual({ types: [] });
  });
});

describe('the rollups behind the counts', () => {
  it('equal the aggregates of the emails and events, also after a contact and its mail are deleted', async () => {
    expect(await rollupDrift(stack, s.sender.project.id)).toEqual([]);
    await get(stack, s.sender.project, `/contacts/${s.a.contactId}`).expect(200);
    await stack.http().delete(`/contacts/${s.a.contactId}`).set('Authorization', `Bearer ${s.sender.project.secret}`).expect(204);
    expect(await rollupDrift(stack, s.sender.project.id)).toEqual([]);
    const types = (await get(stack, s.sender.project, '/activity/types').expect(200)).body.types;
    expect(types).toEqual([
      { type: 'SENT', count: 1 },
      { type: 'CLICKED', count: 1 },
      { type: 'FAILED', count: 1 },
    ]);
  });
});
