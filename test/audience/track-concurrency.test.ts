import { toDataPatch, type DataInput } from '../../src/modules/contacts/custom-fields';
import { startStack, type TestStack } from '../helpers/stack';
import { throwawayDatabaseUrl } from '../helpers/database';
import { query } from './helpers';
import { tenant, type Client } from '../helpers/tenants';

/**
 * Concurrent tracks share statements (src/modules/events/track-batch.ts); whatever the batching, the result
 * must be what the same requests give one after another, in the order their events were recorded.
 */

let stack: TestStack;
beforeAll(async () => {
  // A database of this file's own, with a rule the API does not know: the database refuses some rows at write time.
  stack = await startStack({ env: { DATABASE_URL: await throwawayDatabaseUrl() } });
  await query(stack, `alter table contacts add constraint "refused_by_operator" check ("email" not like 'refused%')`, []);
});
afterAll(() => stack.close());

interface Track {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: DataInput;
}

interface ContactState {
  id: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  events: string[];
}

interface EventRow {
  id: string;
  name: string;
  contact_id: string;
  created_at: string;
}

async function contactsOf(projectId: string): Promise<Map<string, ContactState>> {
  const contacts = await query<{ id: string; email: string; subscribed: boolean; data: Record<string, unknown> }>(
    stack,
    'select id, email, subscribed, data from contacts where project_id = ?',
    [projectId],
  );
  const events = await query<EventRow>(stack, 'select id, name, contact_id, created_at from events where project_id = ? order by seq', [
    projectId,
  ]);
  return new Map(
    contacts.map((c) => [
      c.email,
      { id: c.id, subscribed: c.subscribed, data: c.data, events: events.filter((e) => e.contact_id === c.id).map((e) => e.name) },
    ]),
  );
}

/** One /v1/track applied to a contact's state, as docs/contacts.md and docs/events.md define it. */
function applied(state: Omit<ContactState, 'id'> | undefined, track: Track): Omit<ContactState, 'id'> {
  const patch = toDataPatch(track.data);
  if (!state) return { subscribed: track.subscribed ?? true, data: patch.set, events: [track.event] };
  const subscribed = track.subscribed ?? state.subscribed;
  const data = { ...state.data, ...patch.set };
  for (const key of patch.unset) delete data[key];
  const flip = subscribed === state.subscribed ? [] : [subscribed ? 'contact.subscribed' : 'contact.unsubscribed'];
  return { subscribed, data, events: [...state.events, ...flip, track.event] };
}

async function sendAll(c: Client, tracks: Track[]) {
  return Promise.all(tracks.map(async (track) => ({ track, res: await c.track(track) })));
}

describe('concurrent POST /v1/track', () => {
  it('stores exactly what the same requests give one at a time, in the order their events were recorded', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const existing = Array.from({ length: 10 }, (_, i) => `known${i}@example.test`);
    for (const [i, email] of existing.entries()) {
      await c.track({ email, event: 'seeded', subscribed: i < 5, data: { plan: 'free', keep: 1, drop: 'x' } }).expect(200);
    }
    const before = await contactsOf(projectId);

    const tracks: Track[] = [
      ...Array.from({ length: 20 }, (_, i) => ({
        email: `new${i}@example.test`,
        event: 'signed-up',
        ...(i < 5 ? { subscribed: false } : {}),
        data: { plan: 'pro', visits: i, since: '2026-01-01', promo: { value: 'P', persistent: false } },
      })),
      ...existing.map((email, i) => ({
        email,
        event: 'page-view',
        ...([0, 1].includes(i) ? { subscribed: false } : [2, 5, 6].includes(i) ? { subscribed: true } : {}),
        data: { plan: 'paid', drop: null, visits: i },
      })),
      ...Array.from({ length: 6 }, (_, k) => ({
        email: 'Dup@Example.test',
        event: `dup-${k}`,
        ...(k % 2 ? { subscribed: k % 4 === 1 ? false : true } : {}),
        data: { n: k },
      })),
      ...Array.from({ length: 3 }, (_, k) => ({ email: existing[3]!, event: `again-${k}`, subscribed: k !== 1, data: { n: k } })),
    ];
    const answers = await sendAll(c, tracks);

    for (const { res } of answers) expect(res.status).toBe(200);
    const events = new Map(
      (
        await query<EventRow & { seq: string }>(stack, 'select id, name, contact_id, created_at, seq from events where project_id = ?', [
          projectId,
        ])
      ).map((e) => [e.id, e]),
    );
    const seqOf = (id: string) => BigInt(events.get(id)!.seq);
    answers.sort((a, b) => (seqOf(a.res.body.data.event) < seqOf(b.res.body.data.event) ? -1 : 1));

    const expected = new Map<string, Omit<ContactState, 'id'>>(before);
    for (const { track, res } of answers) {
      const email = track.email.toLowerCase();
      expected.set(email, applied(expected.get(email), track));
      const event = events.get(res.body.data.event)!;
      expect(event).toMatchObject({ name: track.event, contact_id: res.body.data.contact });
      expect(res.body.data.timestamp).toBe(new Date(event.created_at).toISOString());
    }
    const after = await contactsOf(projectId);
    expect(after.size).toBe(expected.size);
    for (const [email, state] of expected)
      expect({ email, ...after.get(email), id: undefined }).toEqual({ email, ...state, id: undefined });
    for (const { track, res } of answers) expect(res.body.data.contact).toBe(after.get(track.email.toLowerCase())!.id);

    const fields = await query<{ key: string; type: string }>(
      stack,
      'select key, type from contact_fields where project_id = ? order by key',
      [projectId],
    );
    expect(fields).toEqual([
      { key: 'drop', type: 'string' },
      { key: 'keep', type: 'number' },
      { key: 'n', type: 'number' },
      { key: 'plan', type: 'string' },
      { key: 'since', type: 'date' },
      { key: 'visits', type: 'number' },
    ]);
    const counts = await query<{ subscribed: boolean; n: string }>(
      stack,
      'select subscribed, sum(n) as n from contact_counts where project_id = ? group by subscribed having sum(n) <> 0 order by subscribed',
      [projectId],
    );
    const stored = [...after.values()];
    expect(counts.map((r) => ({ subscribed: r.subscribed, n: Number(r.n) }))).toEqual(
      [false, true]
        .map((subscribed) => ({ subscribed, n: stored.filter((s) => s.subscribed === subscribed).length }))
        .filter((r) => r.n > 0),
    );
    const stats = await query<{ name: string; n: string }>(
      stack,
      'select name, sum(count) as n from event_stats where project_id = ? group by name order by name',
      [projectId],
    );
    const names = [...events.values()].map((e) => e.name).sort();
    expect(stats.map((s) => [s.name, Number(s.n)])).toEqual(
      [...new Set(names)].map((name) => [name, names.filter((n) => n === name).length]),
    );

    // Proof that requests shared statements: a statement's rows share its transaction's timestamp.
    const instants = new Set(answers.map(({ res }) => res.body.data.timestamp));
    expect(instants.size).toBeLessThan(answers.length);
  });

  it('fails only the request whose data the database refuses, when it shares a statement with others', async () => {
    const {
      c,
      project: { id: projectId },
    } = await tenant(stack);
    const bad = { email: 'refused@example.test', event: 'broken' };
    const alone = await c.track(bad);
    expect(alone.status).toBeGreaterThanOrEqual(500);

    const good = Array.from({ length: 30 }, (_, i) => ({ email: `ok${i % 25}@example.test`, event: 'fine', data: { i } }));
    const answers = await sendAll(c, [...good.slice(0, 15), bad, ...good.slice(15), { ...bad, email: 'refused2@example.test' }]);

    for (const { track, res } of answers) expect(res.status).toBe(track.event === 'broken' ? alone.status : 200);
    const [stored] = await query<{ contacts: string; events: string }>(
      stack,
      `select (select count(*) from contacts where project_id = ?) as contacts, (select count(*) from events where project_id = ? and name = 'fine') as events`,
      [projectId, projectId],
    );
    expect({ contacts: Number(stored!.contacts), events: Number(stored!.events) }).toEqual({ contacts: 25, events: 30 });
  });
});
