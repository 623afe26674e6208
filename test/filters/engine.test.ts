import { startStack, type TestStack } from '../helpers/stack';
import { evaluateFilter } from '../../src/modules/filters/evaluate';
import { loadFilterInputs } from '../../src/modules/filters/inputs';
import { contactMatches, matchingContactsSql, resolveForProject } from '../../src/modules/filters/service';
import type { TestProject } from '../helpers/fixtures';
import { DAY, HOUR, LABELS, MIN, NOW, ago, buildWorld, type Label, type World } from './world';
import { newTenant, client } from '../helpers/tenants';

let stack: TestStack;
let world: World;
beforeAll(async () => {
  stack = await startStack();
  world = await buildWorld(stack);
});
afterAll(() => stack.close());

const f = (field: string, operator: string, value?: unknown, unit?: string) => ({ field, operator, value, unit });
const all = (...filters: object[]) => ({ logic: 'AND', groups: [{ filters }] });
const day = (d: Date) => d.toISOString().slice(0, 10);

type Case = [title: string, tree: (w: World) => object, expected: Label[]];
const c = (title: string, tree: object | ((w: World) => object), expected: Label[]): Case => [
  title,
  typeof tree === 'function' ? (tree as (w: World) => object) : () => tree,
  expected,
];

const CASES: Case[] = [
  c('email equals, case-insensitive', all(f('email', 'equals', 'ANN@example.test')), ['ann']),
  c('email notEquals', all(f('email', 'notEquals', 'ann@example.test')), ['bob', 'cat', 'dan', 'eve']),
  c('email contains, case-insensitive', all(f('email', 'contains', 'EXAMPLE')), ['ann', 'cat', 'eve']),
  c('email notContains', all(f('email', 'notContains', 'example')), ['bob', 'dan']),
  c('email exists: always', all(f('email', 'exists')), [...LABELS]),
  c('email notExists: never', all(f('email', 'notExists')), []),
  c('subscribed equals true', all(f('subscribed', 'equals', true)), ['ann', 'cat', 'dan']),
  c('subscribed equals "false" (string)', all(f('subscribed', 'equals', 'false')), ['bob', 'eve']),
  c('subscribed notEquals true', all(f('subscribed', 'notEquals', true)), ['bob', 'eve']),
  c('createdAt within 1 days', all(f('createdAt', 'within', 1, 'days')), ['cat']),
  c('createdAt within 48 hours: the boundary is inside', all(f('createdAt', 'within', 48, 'hours')), ['ann', 'cat', 'eve']),
  c('createdAt within 30 minutes', all(f('createdAt', 'within', 30, 'minutes')), ['cat']),
  c('createdAt olderThan 30 days', all(f('createdAt', 'olderThan', 30, 'days')), ['bob', 'dan']),
  c('createdAt greaterThan a date', all(f('createdAt', 'greaterThan', ago(3 * DAY).toISOString())), ['ann', 'cat', 'eve']),
  c('createdAt lessThanOrEqual is inclusive', all(f('createdAt', 'lessThanOrEqual', ago(40 * DAY).toISOString())), ['bob', 'dan']),
  c('createdAt lessThan is exclusive', all(f('createdAt', 'lessThan', ago(40 * DAY).toISOString())), ['dan']),
  c('createdAt greaterThanOrEqual', all(f('createdAt', 'greaterThanOrEqual', ago(DAY + MIN).toISOString())), ['cat', 'eve']),
  c('createdAt equals a day', all(f('createdAt', 'equals', day(ago(400 * DAY)))), ['dan']),
  c('createdAt notEquals a day', all(f('createdAt', 'notEquals', day(ago(400 * DAY)))), ['ann', 'bob', 'cat', 'eve']),
  c('updatedAt within 2 hours', all(f('updatedAt', 'within', 2, 'hours')), ['ann', 'cat', 'eve']),
  c('data string equals', all(f('data.plan', 'equals', 'pro')), ['ann']),
  c('data string notEquals includes absent and mistyped values', all(f('data.plan', 'notEquals', 'pro')), ['bob', 'cat', 'dan', 'eve']),
  c('data string contains', all(f('data.plan', 'contains', 'pro')), ['ann', 'cat']),
  c('data string contains is case-sensitive', all(f('data.plan', 'contains', 'PRO')), []),
  c('data string notContains', all(f('data.plan', 'notContains', 'pro')), ['bob', 'dan', 'eve']),
  c('data exists: any stored value', all(f('data.plan', 'exists')), ['ann', 'bob', 'cat', 'eve']),
  c('data notExists', all(f('data.plan', 'notExists')), ['dan']),
  c('data number greaterThan reads numeric strings', all(f('data.age', 'greaterThan', 18)), ['ann', 'cat']),
  c('data number lessThan', all(f('data.age', 'lessThan', 18)), ['bob']),
  c('data number greaterThanOrEqual', all(f('data.age', 'greaterThanOrEqual', 30)), ['ann', 'cat']),
  c('data number lessThanOrEqual', all(f('data.age', 'lessThanOrEqual', 30)), ['ann', 'bob']),
  c('data number equals with a string value', all(f('data.age', 'equals', '30')), ['ann']),
  c('data number equals a numeric string', all(f('data.age', 'equals', 45)), ['cat']),
  c('data number notEquals', all(f('data.age', 'notEquals', 30)), ['bob', 'cat', 'dan', 'eve']),
  c('data boolean equals true reads "true"', all(f('data.vip', 'equals', true)), ['ann', 'cat']),
  c('data boolean equals false', all(f('data.vip', 'equals', false)), ['bob']),
  c('data boolean notEquals true', all(f('data.vip', 'notEquals', true)), ['bob', 'dan', 'eve']),
  c('data date equals a day', all(f('data.signup', 'equals', '2024-01-05')), ['ann']),
  c('data date equals the day of a timestamp', all(f('data.signup', 'equals', '2024-01-05T18:00:00Z')), ['ann']),
  c('data date equals is the UTC day', all(f('data.signup', 'equals', '2023-12-31')), ['bob']),
  c('data date greaterThan', all(f('data.signup', 'greaterThan', '2023-12-31T23:00:00Z')), ['ann', 'bob']),
  c('data date lessThan', all(f('data.signup', 'lessThan', '2024-01-01')), ['bob']),
  c('data date olderThan', all(f('data.signup', 'olderThan', 30, 'days')), ['ann', 'bob']),
  c('data date within', all(f('data.signup', 'within', 1000, 'days')), ['ann', 'bob']),
  c('data date within counts future dates', all(f('data.renewal', 'within', 1, 'days')), ['ann']),
  c('data date olderThan excludes future dates', all(f('data.renewal', 'olderThan', 1, 'days')), []),
  c('data date exists includes impossible dates', all(f('data.signup', 'exists')), ['ann', 'bob', 'cat', 'eve']),
  c('nested data path', all(f('data.profile.tier', 'equals', 'gold')), ['ann']),
  c('nested data path exists, arrays included', all(f('data.profile.tier', 'exists')), ['ann', 'bob', 'eve']),
  c('nested data path notExists', all(f('data.profile.tier', 'notExists')), ['cat', 'dan']),
  c('event triggered', all(f('event.purchase', 'triggered')), ['ann', 'bob']),
  c('event notTriggered', all(f('event.purchase', 'notTriggered')), ['cat', 'dan', 'eve']),
  c('event triggeredWithin', all(f('event.purchase', 'triggeredWithin', 2, 'days')), ['ann']),
  c('event notTriggeredWithin includes never', all(f('event.purchase', 'notTriggeredWithin', 2, 'days')), ['bob', 'cat', 'dan', 'eve']),
  c('event triggeredOlderThan: none since', all(f('event.purchase', 'triggeredOlderThan', 30, 'days')), ['bob']),
  c('event triggeredOlderThan: the last one counts', all(f('event.purchase', 'triggeredOlderThan', 12, 'hours')), ['ann', 'bob']),
  c('event triggeredWithin minutes', all(f('event.signup', 'triggeredWithin', 10, 'minutes')), ['cat']),
  c('email.opened triggered', all(f('email.opened', 'triggered')), ['ann']),
  c('email.clicked triggeredWithin', all(f('email.clicked', 'triggeredWithin', 30, 'days')), ['bob']),
  c('email.bounced triggered', all(f('email.bounced', 'triggered')), ['bob']),
  c('email.complained triggered', all(f('email.complained', 'triggered')), ['eve']),
  c('email.delivered triggeredWithin', all(f('email.delivered', 'triggeredWithin', 1, 'hours')), ['cat', 'eve']),
  c('email.sent notTriggeredWithin', all(f('email.sent', 'notTriggeredWithin', 5, 'hours')), ['bob', 'cat', 'dan']),
  c('email.sent triggeredOlderThan', all(f('email.sent', 'triggeredOlderThan', 2, 'hours')), ['ann', 'bob']),
  c('STATIC segment member', (w) => all(f(`segment.${w.segments.vip}`, 'memberOfSegment')), ['ann', 'cat']),
  c('STATIC segment notMember', (w) => all(f(`segment.${w.segments.vip}`, 'notMemberOfSegment')), ['bob', 'dan', 'eve']),
  c('DYNAMIC segment member', (w) => all(f(`segment.${w.segments.pro}`, 'memberOfSegment')), ['ann']),
  c('DYNAMIC segment notMember', (w) => all(f(`segment.${w.segments.pro}`, 'notMemberOfSegment')), ['bob', 'cat', 'dan', 'eve']),
  c('segment of segments', (w) => all(f(`segment.${w.segments.nested}`, 'memberOfSegment')), ['ann', 'cat']),
  c(
    'OR of groups',
    { logic: 'OR', groups: [{ filters: [f('data.plan', 'equals', 'free')] }, { filters: [f('data.age', 'greaterThan', 40)] }] },
    ['bob', 'cat'],
  ),
  c(
    'AND of groups',
    { logic: 'AND', groups: [{ filters: [f('subscribed', 'equals', true)] }, { filters: [f('email', 'contains', 'example')] }] },
    ['ann', 'cat'],
  ),
  c(
    'nested conditions are ANDed with the group filters',
    {
      logic: 'AND',
      groups: [
        {
          filters: [f('subscribed', 'equals', true)],
          conditions: {
            logic: 'OR',
            groups: [{ filters: [f('data.plan', 'equals', 'pro')] }, { filters: [f('event.signup', 'triggered')] }],
          },
        },
      ],
    },
    ['ann', 'cat'],
  ),
  c(
    'the benchmark shape: data field, createdAt within, event triggered',
    all(f('data.plan', 'equals', 'pro'), f('createdAt', 'within', 30, 'days'), f('event.purchase', 'triggered')),
    ['ann'],
  ),
];

describe('filter engine: the SQL face and the in-memory face agree on every operator', () => {
  it.each(CASES)('%s', async (_title, build, expected) => {
    const em = stack.deps.orm.em.fork();
    const resolved = await resolveForProject(em, world.project.id, build(world), { strict: true });

    const q = matchingContactsSql(world.project.id, resolved, NOW, 'c.id');
    const viaSql = (await em.execute<Array<{ id: string }>>(q.sql, q.params)).map((r) => world.labelOf(r.id)).sort();

    const inMemory: Label[] = [];
    for (const label of LABELS) {
      const inputs = await loadFilterInputs(em, world.project.id, world.ids[label], resolved);
      if (evaluateFilter(resolved, inputs!, NOW)) inMemory.push(label);
    }

    expect({ sql: viaSql, memory: inMemory.sort() }).toEqual({ sql: [...expected].sort(), memory: [...expected].sort() });
  });
});

describe('filter engine: CONDITION steps read event.<key> value operators from the execution context', () => {
  const context = { order: { total: 150, currency: 'EUR' }, coupon: 'SPRING', count: '7', paidAt: ago(HOUR).toISOString() };
  const CONTEXT_CASES: Array<[string, object, boolean]> = [
    ['number greaterThan', f('event.order.total', 'greaterThan', 100), true],
    ['number lessThan', f('event.order.total', 'lessThan', 100), false],
    ['string equals', f('event.order.currency', 'equals', 'EUR'), true],
    ['string notEquals', f('event.order.currency', 'notEquals', 'EUR'), false],
    ['string contains', f('event.coupon', 'contains', 'RING'), true],
    ['numeric string ordering', f('event.count', 'greaterThanOrEqual', 7), true],
    ['date within', f('event.paidAt', 'within', 2, 'hours'), true],
    ['date olderThan', f('event.paidAt', 'olderThan', 2, 'hours'), false],
    ['absent key exists', f('event.missing', 'exists'), false],
    ['absent key notExists', f('event.missing', 'notExists'), true],
    ['absent key equals', f('event.missing', 'equals', 'x'), false],
    ['absent key notEquals', f('event.missing', 'notEquals', 'x'), true],
    ['triggered still reads the contact events', f('event.purchase', 'triggered'), true],
    ['combined with contact fields', f('data.plan', 'equals', 'free'), false],
  ];

  it.each(CONTEXT_CASES)('%s', async (_title, filter, expected) => {
    const em = stack.deps.orm.em.fork();
    const matched = await contactMatches(em, world.project.id, world.ids.ann, all(filter), { context, now: NOW });
    expect(matched).toBe(expected);
  });

  it('outside CONDITION steps, a value operator on event.<name> is refused', async () => {
    const em = stack.deps.orm.em.fork();
    await expect(resolveForProject(em, world.project.id, all(f('event.order.total', 'greaterThan', 1)))).rejects.toThrow(
      /Operator "greaterThan" does not apply to event.order.total/,
    );
  });
});

describe('filter engine: a data path no contact has yet (docs/filters.md)', () => {
  type Arrival = 'early' | 'a1' | 'a2' | 'a3';
  // a1 arrives first, so its values fix the inferred types, some of them other than the filter value's type.
  const ARRIVALS: Array<[Exclude<Arrival, 'early'>, Record<string, unknown>]> = [
    ['a1', { n: 5, b: 'true', v: false, d: '2024-03-01T10:00:00Z', s: 'pro', q: 50, m: 12, k: 'abc', w: '2025-06-14T00:00:00Z' }],
    ['a2', { n: '7', b: true, v: 'false', d: '2023-05-05', s: 'pro plus', q: '150', m: '12', k: 20 }],
    ['a3', { n: 2, v: true, d: 'soon', s: 42, w: '2025-01-01' }],
  ];
  // [title, filter, matches before any contact has the path, matches once a1..a3 arrived]
  const CASES: Array<[string, object, Arrival[], Arrival[]]> = [
    ['number value, typed number', f('data.n', 'equals', 5), [], ['a1']],
    ['number ordering reads numeric strings once typed', f('data.n', 'greaterThan', 3), [], ['a1', 'a2']],
    ['number notEquals includes the absent', f('data.n', 'notEquals', 5), ['early'], ['early', 'a2', 'a3']],
    ['boolean value, typed boolean', f('data.v', 'equals', false), [], ['a1', 'a2']],
    ['boolean value, typed string by a "true" first: compares as text', f('data.b', 'equals', true), [], ['a1']],
    ['boolean notEquals, typed string', f('data.b', 'notEquals', true), ['early'], ['early', 'a2', 'a3']],
    ['date string ordering', f('data.d', 'greaterThan', '2024-01-01'), [], ['a1']],
    ['date string equals is the UTC day', f('data.d', 'equals', '2024-03-01'), [], ['a1']],
    ['date string lessThan', f('data.d', 'lessThan', '2024-01-01'), [], ['a2']],
    ['within types the path as a date', f('data.w', 'within', 7, 'days'), [], ['a1']],
    ['olderThan types the path as a date', f('data.w', 'olderThan', 30, 'days'), [], ['a3']],
    ['plain string equals', f('data.s', 'equals', 'pro'), [], ['a1']],
    ['plain string contains', f('data.s', 'contains', 'pr'), [], ['a1', 'a2']],
    ['plain string notContains', f('data.s', 'notContains', 'pr'), ['early'], ['early', 'a3']],
    ['exists', f('data.s', 'exists'), [], ['a1', 'a2', 'a3']],
    ['notExists', f('data.s', 'notExists'), ['early'], ['early']],
    ['numeric string under an ordering compares as a number', f('data.q', 'lessThan', '100'), [], ['a1']],
    ['string value, typed number: compares as a number', f('data.m', 'equals', '12'), [], ['a1', 'a2']],
    ['contains, typed number: compares nothing', f('data.m', 'contains', '1'), [], []],
    ['notContains, typed number: everyone', f('data.m', 'notContains', '1'), ['early'], ['early', 'a1', 'a2', 'a3']],
    ['number ordering, typed string: compares nothing', f('data.k', 'greaterThan', 10), [], []],
  ];

  let tenant: TestProject;
  let project: string;
  const ids = new Map<string, Arrival>();
  beforeAll(async () => {
    tenant = (await newTenant(stack)).project;
    project = tenant.id;
    const early = await client(stack, tenant)
      .post('/contacts')
      .send({ email: 'early@example.test', data: { other: 1 } })
      .expect(201);
    ids.set(early.body.id, 'early');
  });

  async function matches(tree: object, strict: boolean) {
    const em = stack.deps.orm.em.fork();
    const resolved = await resolveForProject(em, project, tree, { strict });
    const q = matchingContactsSql(project, resolved, NOW, 'c.id');
    const viaSql = (await em.execute<Array<{ id: string }>>(q.sql, q.params)).map((r) => ids.get(r.id)!).sort();
    const inMemory: Arrival[] = [];
    for (const [id, label] of ids) {
      if (evaluateFilter(resolved, (await loadFilterInputs(em, project, id, resolved))!, NOW)) inMemory.push(label);
    }
    return { sql: viaSql, memory: inMemory.sort() };
  }

  const both = (labels: Arrival[]) => ({ sql: [...labels].sort(), memory: [...labels].sort() });

  it('is accepted when saved, compares by its value, then by the type inferred once data arrives, in SQL and in memory', async () => {
    const before: Record<string, object> = {};
    for (const [title, filter] of CASES) before[title] = await matches(all(filter), true);
    expect(before).toEqual(Object.fromEntries(CASES.map(([title, , expected]) => [title, both(expected)])));

    for (const [label, data] of ARRIVALS) {
      const res = await client(stack, tenant)
        .post('/contacts')
        .send({ email: `${label}@example.test`, data })
        .expect(201);
      ids.set(res.body.id, label);
    }
    // The trees are stored now, so they resolve leniently, against the types the arrivals fixed.
    const after: Record<string, object> = {};
    for (const [title, filter] of CASES) after[title] = await matches(all(filter), false);
    expect(after).toEqual(Object.fromEntries(CASES.map(([title, , , expected]) => [title, both(expected)])));

    // Saved afresh, a filter the inferred type cannot compare is refused, naming the type.
    await expect(matches(all(f('data.m', 'contains', '1')), true)).rejects.toThrow(
      /"contains" does not apply to data\.m; use one of the operators for number fields/,
    );
    await expect(matches(all(f('data.k', 'greaterThan', 10)), true)).rejects.toThrow(
      /"greaterThan" does not apply to data\.k; use one of the operators for string fields/,
    );
  });

  it('refuses what no contact could ever have, and filters its value cannot type', async () => {
    const em = stack.deps.orm.em.fork();
    const refused: Array<[object, RegExp]> = [
      [f('foo', 'equals', 1), /Unknown field "foo"/],
      [f('data.', 'equals', 1), /Unknown field "data\."/],
      [f('data.a..b', 'equals', 1), /Unknown field "data\.a\.\.b"/],
      [f('email.nope', 'triggered'), /Unknown field "email\.nope"/],
      [f('data.unseen', 'greaterThan', 'abc'), /"greaterThan" does not apply to data\.unseen \(compared as string, the type of its value/],
      [f('data.unseen', 'equals'), /needs a value/],
      [f('data.unseen', 'within', 3), /needs a unit/],
    ];
    for (const [filter, message] of refused) {
      await expect(resolveForProject(em, project, all(filter), { strict: true })).rejects.toThrow(message);
    }
  });
});
