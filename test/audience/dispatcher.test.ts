import net, { type AddressInfo } from 'node:net';
import { startStack, type TestStack } from '../helpers/stack';
import { Client, Connection } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { waitFor } from '../helpers/wait';
import { EventDispatcher, type DispatcherOptions } from '../../src/modules/outbox/dispatcher';
import type { EventConsumer, OutboxEvent } from '../../src/modules/outbox/consumer';
import { OUTBOX_CHANNEL } from '../../src/modules/outbox/channel';
import { recordEvents } from '../../src/modules/outbox/record';
import { query } from './helpers';
import { client, tenant } from '../helpers/tenants';
import { hear } from '../helpers/seed';

let stack: TestStack;
const running: EventDispatcher[] = [];
beforeAll(async () => {
  stack = await startStack();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});
afterAll(() => stack.close());

async function startDispatcher(
  on: TestStack,
  consumers: EventConsumer[],
  options: Partial<DispatcherOptions> = {},
): Promise<EventDispatcher> {
  const dispatcher = new EventDispatcher(on.deps.orm, on.deps.config.DATABASE_URL, consumers, on.deps.logger, options);
  await dispatcher.start();
  running.push(dispatcher);
  return dispatcher;
}

/**
 * A consumer that records the events of one project (the worker database also holds other tests' events,
 * which dispatchers hand off too) and fails them as `fail` decides.
 */
function recorder(projectId: string, fail: (e: OutboxEvent) => boolean = () => false, name = 'recorder') {
  const seen: Array<OutboxEvent & { at: number }> = [];
  const consumer: EventConsumer = {
    name,
    async handle(event) {
      if (event.projectId !== projectId) return;
      seen.push({ ...event, at: Date.now() });
      if (fail(event)) throw new Error('consumer refused');
    },
  };
  return { consumer, seen };
}

/** A new tenant whose events of this file's names enter the outbox, as if an automation named them. */
async function heardTenant(on: TestStack) {
  const t = await tenant(on);
  await hear(on, t.project.id, 'signup', 'first', 'bulk', 'inside', 'implicit', 'activated', 'upgraded');
  return t;
}

/** An event's row in the outbox, which is deleted once every consumer took the event. */
const outboxRow = (eventId: string) =>
  query<{ attempts: number; error: string | null }>(stack, 'select attempts, error from event_outbox where event_id = ?', [eventId]).then(
    (rows) => rows[0],
  );
const dispatched = async (eventId: string) => ((await outboxRow(eventId)) === undefined ? true : undefined);

const undispatched = async (on: TestStack, projectId: string) =>
  Number((await query<{ n: string }>(on, 'select count(*) as n from event_outbox where project_id = ?', [projectId]))[0]!.n);

describe('events outbox dispatcher', () => {
  it('hands a tracked event off as soon as it commits, woken by NOTIFY rather than the poll', async () => {
    const { project } = await heardTenant(stack);
    const { consumer, seen } = recorder(project.id);
    // A poll this slow would miss the test's deadline: only the notification can wake the dispatcher.
    await startDispatcher(stack, [consumer], { pollIntervalMs: 600_000 });
    await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    const res = await client(stack, project)
      .track({ email: 'fast@example.test', event: 'signup', data: { plan: 'pro' } })
      .expect(200);
    await waitFor('the hand-off', async () => (seen.length ? true : undefined), 5_000);
    expect(seen).toEqual([
      expect.objectContaining({
        id: res.body.data.event,
        projectId: project.id,
        contactId: res.body.data.contact,
        name: 'signup',
        data: { plan: 'pro' },
        attempts: 0,
      }),
    ]);
    expect(seen[0]!.at - sent).toBeLessThan(2_000);
    await waitFor('the outbox row deleted', () => dispatched(res.body.data.event));
  });

  it('retries a failed hand-off with growing backoff until it succeeds, then deletes its outbox row', async () => {
    const { project } = await heardTenant(stack);
    const { consumer, seen } = recorder(project.id, () => seen.length <= 2);
    await startDispatcher(stack, [consumer], { retryBaseMs: 300, pollIntervalMs: 600_000 });
    const res = await client(stack, project).track({ email: 'flaky@example.test', event: 'signup' }).expect(200);
    await waitFor('a failed attempt recorded', async () => ((await outboxRow(res.body.data.event))?.attempts ? true : undefined), 5_000);
    expect(await outboxRow(res.body.data.event)).toEqual({ attempts: 1, error: 'recorder: consumer refused' });
    await waitFor('three attempts', async () => (seen.length >= 3 ? true : undefined), 15_000);
    await waitFor('the outbox row deleted', () => dispatched(res.body.data.event));
    expect(seen.map((e) => e.attempts)).toEqual([0, 1, 2]);
    // Backoff doubles from 300 ms, with at most 25% jitter below it.
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(225);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(450);
  });

  it('deletes the outbox row of an event only once every consumer took it (at least once for each)', async () => {
    const { project } = await heardTenant(stack);
    const first = recorder(project.id, () => false, 'first');
    const second = recorder(project.id, () => second.seen.length === 1, 'second');
    await startDispatcher(stack, [first.consumer, second.consumer], { retryBaseMs: 100 });
    const res = await client(stack, project).track({ email: 'two@example.test', event: 'signup' }).expect(200);
    await waitFor('the outbox row deleted', () => dispatched(res.body.data.event), 10_000);
    expect(first.seen.map((e) => e.attempts)).toEqual([0, 1]);
    expect(second.seen.map((e) => e.attempts)).toEqual([0, 1]);
  });

  it('never hands off an event deleted before its turn: its outbox row goes with it', async () => {
    const { project } = await heardTenant(stack);
    const c = client(stack, project);
    const gone = (await c.track({ email: 'gone@example.test', event: 'signup' }).expect(200)).body.data.event;
    const kept = (await c.track({ email: 'kept@example.test', event: 'signup' }).expect(200)).body.data.event;
    expect(await outboxRow(gone)).toEqual({ attempts: 0, error: null });
    await query(stack, 'delete from events where id = ?', [gone]);
    expect(await outboxRow(gone)).toBeUndefined();
    const { consumer, seen } = recorder(project.id);
    await startDispatcher(stack, [consumer]);
    await waitFor('the other event handed off', () => dispatched(kept));
    expect(seen.map((e) => e.id)).toEqual([kept]);
  });

  it('drains a backlog batch after batch in one wake, the first batch shared among projects', async () => {
    const [big, small, other] = [await heardTenant(stack), await heardTenant(stack), await heardTenant(stack)];
    const track = (t: typeof big, email: string) => client(stack, t.project).track({ email, event: 'signup' }).expect(200);
    for (let i = 0; i < 25; i++) await track(big, `b${i}@example.test`);
    await track(small, 's@example.test');
    await track(other, 'o@example.test');
    const seen = [big, small, other].map((t) => recorder(t.project.id));
    // Batches of 10 among three projects give each a share of 8: the first batch leaves most of the big
    // project's events. The poll is too slow for the test: the next batches must follow at once.
    await startDispatcher(
      stack,
      seen.map((r) => r.consumer),
      { batchSize: 10, pollIntervalMs: 600_000 },
    );
    await waitFor('every event handed off', async () => (seen.map((r) => r.seen.length).join() === '25,1,1' ? true : undefined), 10_000);
  });

  it('lets several dispatchers share the outbox: every event is handed off exactly once', async () => {
    const { project } = await heardTenant(stack);
    const { body } = await client(stack, project).track({ email: 'many@example.test', event: 'first' }).expect(200);
    const handled: string[] = [];
    const consumer: EventConsumer = {
      name: 'slow',
      async handle(event) {
        if (event.projectId !== project.id) return;
        await new Promise((r) => setTimeout(r, 2));
        handled.push(event.id);
      },
    };
    // Raw inserts send no notification: the poll finds them.
    await Promise.all([1, 2, 3].map(() => startDispatcher(stack, [consumer], { batchSize: 10, pollIntervalMs: 300 })));
    await query(
      stack,
      `insert into events (id, created_at, project_id, contact_id, name, data)
       select gen_random_uuid(), now(), ?, ?, 'bulk', jsonb_build_object('n', g) from generate_series(1, 300) g`,
      [project.id, body.data.contact],
    );
    await waitFor('an empty outbox', async () => ((await undispatched(stack, project.id)) === 0 ? true : undefined), 30_000);
    expect(handled).toHaveLength(301);
    expect(new Set(handled).size).toBe(301);
  });

  it('vacuums the outbox each time it has dispatched its share of rows, and stops only after the vacuum', async () => {
    const { project } = await heardTenant(stack);
    const { body } = await client(stack, project).track({ email: 'vacuum@example.test', event: 'first' }).expect(200);
    const vacuums = async () =>
      Number((await query<{ n: string }>(stack, `select vacuum_count as n from pg_stat_user_tables where relname = 'event_outbox'`))[0]!.n);
    // The dispatcher counts every row it claims, and the worker database also holds other tests' rows (some
    // due later, to be retried): without them, the rows it claims are this test's, in batches of 50.
    await query(stack, `delete from event_outbox`);
    // Raw inserts send no notification: the poll finds them.
    const wave = async (n: number) => {
      await query(
        stack,
        `insert into events (id, created_at, project_id, contact_id, name, data)
         select gen_random_uuid(), now(), ?, ?, 'bulk', '{}'::jsonb from generate_series(1, ?) g`,
        [project.id, body.data.contact, n],
      );
      await waitFor('an empty outbox', async () => ((await undispatched(stack, project.id)) === 0 ? true : undefined), 30_000);
    };
    const before = await vacuums();
    const dispatcher = await startDispatcher(stack, [], { batchSize: 50, pollIntervalMs: 300, vacuumEveryRows: 100 });
    await wave(100);
    // The first vacuum, at the second batch.
    await waitFor('the first vacuum', async () => ((await vacuums()) === before + 1 ? true : undefined), 10_000);
    // The second vacuum at this wave's second batch; its third leaves 50 rows, under the share. A share
    // reached while a vacuum runs would start the next one after it, so the waves keep their crossings apart.
    await wave(150);
    await dispatcher.stop();
    // Over by the time stop() returned.
    expect(await vacuums()).toBe(before + 2);
  });
});

describe('notification after commit', () => {
  it('notifies the outbox channel once the transaction that recorded events commits, not before', async () => {
    const { project } = await heardTenant(stack);
    const { body } = await client(stack, project).track({ email: 'notify@example.test', event: 'first' }).expect(200);
    const listener = new PgClient({ connectionString: stack.deps.config.DATABASE_URL });
    await listener.connect();
    const received: number[] = [];
    listener.on('notification', (n) => n.channel === OUTBOX_CHANNEL && received.push(Date.now()));
    await listener.query(`listen ${OUTBOX_CHANNEL}`);
    try {
      let committedAt = 0;
      await stack.deps.orm.em.fork().transactional(async (tx) => {
        recordEvents(tx, [{ projectId: project.id, contactId: body.data.contact, name: 'inside' }]);
        await tx.flush();
        await new Promise((r) => setTimeout(r, 300));
        expect(received).toEqual([]);
        committedAt = Date.now();
      });
      await waitFor('the notification', async () => (received.length ? true : undefined), 5_000);
      expect(received[0]!).toBeGreaterThanOrEqual(committedAt);
      // A flush outside any transaction commits its own, and notifies too.
      const em = stack.deps.orm.em.fork();
      recordEvents(em, [{ projectId: project.id, contactId: body.data.contact, name: 'implicit' }]);
      await em.flush();
      await waitFor('the second notification', async () => (received.length >= 2 ? true : undefined), 5_000);
    } finally {
      await listener.end();
    }
  });
});

describe('durable hand-off to Temporal', () => {
  /** A port nothing listens on, until `open()` forwards it to the dev server: Temporal, down and then up. */
  async function temporalBehindSwitch() {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const [host, target] = (process.env.TEST_TEMPORAL_ADDRESS ?? 'localhost:7233').split(':');
    let proxy: net.Server | null = null;
    const sockets = new Set<net.Socket>();
    return {
      address: `127.0.0.1:${port}`,
      open: () =>
        new Promise<void>((resolve) => {
          proxy = net.createServer((socket) => {
            const upstream = net.connect(Number(target), host === 'localhost' ? '127.0.0.1' : host);
            for (const s of [socket, upstream]) {
              sockets.add(s);
              s.on('error', () => s.destroy());
              s.on('close', () => sockets.delete(s));
            }
            socket.pipe(upstream).pipe(socket);
          });
          proxy.listen(port, '127.0.0.1', resolve);
        }),
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((r) => (proxy ? proxy.close(r) : r(undefined)));
      },
    };
  }

  it('accepts /v1/track while Temporal is unreachable and hands the events to Temporal once it is back', async () => {
    const temporal = await temporalBehindSwitch();
    const isolated = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address } });
    const cleanups: Array<() => Promise<void>> = [];
    try {
      const { project } = await heardTenant(isolated);
      const api = client(isolated, project);
      const tracked = [];
      for (const event of ['signup', 'activated', 'upgraded'])
        tracked.push((await api.track({ email: 'durable@example.test', event }).expect(200)).body.data);

      // What the automation engine does with an event: signal (starting if needed) the contact's workflow.
      // The SDK's own retries are off: the dispatcher retries, and an SDK retry timer would outlive the test.
      // gRPC's reconnect backoff is capped too, so the client notices soon that Temporal is back.
      const temporalClient = new Client({
        connection: Connection.lazy({
          address: temporal.address,
          interceptors: [],
          channelArgs: { 'grpc.initial_reconnect_backoff_ms': 200, 'grpc.max_reconnect_backoff_ms': 1_000 },
        }),
      });
      const taskQueue = isolated.deps.temporal.taskQueue;
      const workflowId = `outbox-probe-${tracked[0]!.contact}`;
      const consumer: EventConsumer = {
        name: 'temporal',
        async handle(event, signal) {
          if (event.projectId !== project.id) return;
          await temporalClient.withAbortSignal(signal, () =>
            temporalClient.workflow.signalWithStart('outboxProbe', {
              workflowId: `outbox-probe-${event.contactId}`,
              taskQueue,
              args: [],
              signal: 'event',
              signalArgs: [{ id: event.id, name: event.name }],
            }),
          );
        },
      };
      cleanups.push(async () => {
        await temporalClient.workflow
          .getHandle(workflowId)
          .terminate('test finished')
          .catch(() => undefined);
        await temporalClient.connection.close();
      });
      await startDispatcher(isolated, [consumer], { retryBaseMs: 250, retryMaxMs: 2_000, handoffTimeoutMs: 3_000 });

      const ids = tracked.map((t) => t.event);
      await waitFor(
        'failed hand-offs while Temporal is down',
        async () => {
          const rows = await query<{ n: string }>(
            isolated,
            'select count(*) as n from event_outbox where event_id in (?, ?, ?) and attempts > 0',
            ids,
          );
          return Number(rows[0]!.n) === 3 ? true : undefined;
        },
        30_000,
      );

      await temporal.open();
      await waitFor('every event handed off', async () => ((await undispatched(isolated, project.id)) === 0 ? true : undefined), 90_000);

      // Delivery is at least once: a hand-off that timed out may still have reached Temporal.
      const signalled = new Set<string>();
      for (const e of (await temporalClient.workflow.getHandle(workflowId).fetchHistory()).events ?? []) {
        for (const p of e.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []) {
          signalled.add((JSON.parse(Buffer.from(p.data!).toString('utf8')) as { id: string }).id);
        }
      }
      expect([...signalled].sort()).toEqual([...ids].map(String).sort());
    } finally {
      await Promise.all(running.splice(0).map((d) => d.stop()));
      for (const cleanup of cleanups.splice(0)) await cleanup();
      await isolated.deps.temporal.client.connection.close();
      await isolated.close();
      await temporal.close();
    }
  });
});
