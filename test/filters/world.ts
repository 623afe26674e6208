import type { TestStack } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';
import { seedEvents, sql } from '../helpers/seed';
import { newTenant, client } from '../helpers/tenants';

/**
 * Five contacts with data of every type (and values that do not read as their field's type), events at
 * known distances from NOW, and segments of both kinds. Contacts and segments go through the API; only
 * timestamps in the past are set directly, since no endpoint backdates a contact or an event.
 */
export const NOW = new Date(Date.UTC(2025, 5, 15, 12, 0, 0));
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const ago = (ms: number) => new Date(NOW.getTime() - ms);

export const LABELS = ['ann', 'bob', 'cat', 'dan', 'eve'] as const;
export type Label = (typeof LABELS)[number];

interface Spec {
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  events: Array<{ name: string; at: Date }>;
}

// Creation order matters: ann's values fix each field's inferred type (docs/contacts.md, custom fields).
const SPECS: Record<Label, Spec> = {
  ann: {
    email: 'ann@example.test',
    subscribed: true,
    data: {
      plan: 'pro',
      age: 30,
      vip: true,
      signup: '2024-01-05',
      renewal: '2099-01-01T00:00:00Z',
      profile: { tier: 'gold' },
      nick: 'Annie',
    },
    createdAt: ago(2 * DAY),
    updatedAt: ago(HOUR),
    events: [
      { name: 'purchase', at: ago(DAY) },
      { name: 'purchase', at: ago(40 * DAY) },
      { name: 'email.open', at: ago(3 * HOUR) },
      { name: 'email.sent', at: ago(4 * HOUR) },
    ],
  },
  bob: {
    email: 'bob@sample.test',
    subscribed: false,
    data: { plan: 'free', age: 17, vip: false, signup: '2023-12-31T23:30:00Z', profile: { tier: 'silver' } },
    createdAt: ago(40 * DAY),
    updatedAt: ago(40 * DAY),
    events: [
      { name: 'purchase', at: ago(40 * DAY) },
      { name: 'email.click', at: ago(10 * DAY) },
      { name: 'email.bounce', at: ago(2 * DAY) },
      { name: 'email.sent', at: ago(11 * DAY) },
    ],
  },
  cat: {
    email: 'cat@example.test',
    subscribed: true,
    data: { plan: 'pro plus', age: '45', vip: 'true', signup: '2024-02-30', profile: 'flat', nick: 'c' },
    createdAt: ago(10 * MIN),
    updatedAt: ago(10 * MIN),
    events: [
      { name: 'signup', at: ago(5 * MIN) },
      { name: 'email.delivery', at: ago(20 * MIN) },
    ],
  },
  dan: { email: 'dan@other.test', subscribed: true, data: {}, createdAt: ago(400 * DAY), updatedAt: ago(3 * DAY), events: [] },
  eve: {
    email: 'eve@example.test',
    subscribed: false,
    data: { plan: 42, age: 'old', vip: 1, signup: 20240105, profile: { tier: ['gold'] } },
    createdAt: ago(DAY + MIN),
    updatedAt: ago(2 * HOUR),
    events: [
      { name: 'email.sent', at: ago(HOUR) },
      { name: 'email.delivery', at: ago(50 * MIN) },
      { name: 'email.complaint', at: ago(30 * MIN) },
    ],
  },
};

export interface World {
  project: TestProject;
  ids: Record<Label, string>;
  labelOf: (id: string) => Label;
  segments: { vip: string; pro: string; nested: string };
}

export async function buildWorld(stack: TestStack): Promise<World> {
  const { project } = await newTenant(stack);
  const c = client(stack, project);
  const ids = {} as Record<Label, string>;
  for (const label of LABELS) {
    const spec = SPECS[label];
    const res = await c.post('/contacts').send({ email: spec.email, subscribed: spec.subscribed, data: spec.data }).expect(201);
    ids[label] = res.body.id;
    await sql(stack, 'update contacts set created_at = ?, updated_at = ? where id = ?', [spec.createdAt, spec.updatedAt, ids[label]]);
    // Creating a contact may itself record service events (contact.subscribed); the world's events are its own.
    await sql(stack, 'delete from events where contact_id = ?', [ids[label]]);
    await seedEvents(stack, project.id, ids[label], spec.events);
  }
  const segment = async (body: object) => (await c.post('/segments').send(body).expect(201)).body.id as string;
  const vip = await segment({ name: 'VIP', type: 'STATIC' });
  await c
    .post(`/segments/${vip}/members`)
    .send({ emails: [SPECS.ann.email, SPECS.cat.email] })
    .expect(200);
  const pro = await segment({
    name: 'Pro',
    condition: { logic: 'AND', groups: [{ filters: [{ field: 'data.plan', operator: 'equals', value: 'pro' }] }] },
  });
  const nested = await segment({
    name: 'Pro or VIP',
    condition: {
      logic: 'OR',
      groups: [
        { filters: [{ field: `segment.${pro}`, operator: 'memberOfSegment' }] },
        { filters: [{ field: `segment.${vip}`, operator: 'memberOfSegment' }] },
      ],
    },
  });
  const byId = new Map(LABELS.map((l) => [ids[l], l]));
  return { project, ids, labelOf: (id) => byId.get(id)!, segments: { vip, pro, nested } };
}
