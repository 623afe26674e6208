import type { Client } from 'pg';
import { countersOf, emailDeltas } from '../../src/db/migrations/0024-activity-rollups';
import { SHAPE_0050 } from '../../src/db/migrations/0050-sending-surface';
import { createProject, signupUser } from '../helpers/fixtures';
import { sql } from '../helpers/seed';
import { startStack, type TestStack } from '../helpers/stack';
import { plansAfter } from '../helpers/trigger-plans';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

const COUNTERS = countersOf(SHAPE_0050);
const STAGES = SHAPE_0050.stages;
const STATUSES = ['PENDING', 'SENT', 'DELIVERED', 'BOUNCED', 'FAILED', 'CANCELLED', 'SUPPRESSED', 'SCHEDULED'];
/** A SCHEDULED email has a release time, no other has (migration 0162). */
const RELEASE_AT = (status: string) => `case when ${status} = 'SCHEDULED' then now() end`;

/** A seeded generator, so that a failure can be run again as it was. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick };
}

/** The rollup summed over slots, beside the same counters aggregated from the project's email rows. */
async function rollupAndTruth(projectId: string) {
  const key = `"project_id", "hour", "source_type", "campaign_id", "simulated"`;
  const counters = COUNTERS.map((c) => `coalesce(sum("${c}"), 0)::int as "${c}"`).join(', ');
  const nonzero = COUNTERS.map((c) => `coalesce(sum("${c}"), 0) <> 0`).join(' or ');
  const rollup = await sql(
    stack,
    `select ${key}, ${counters} from email_stats where project_id = ? group by ${key} having ${nonzero} order by ${key}`,
    [projectId],
  );
  const rows = `select ${SHAPE_0050.columns.map((c) => `"${c}"`).join(', ')}, 1 as "sign" from emails where project_id = '${projectId}'`;
  const truth = await sql(
    stack,
    `select ${key}, ${counters} from (${emailDeltas(rows, false, SHAPE_0050)}) d group by ${key} order by ${key}`,
  );
  return { rollup, truth };
}

describe('the email rollup under updates', () => {
  it('equals the aggregates of the rows after multi-row updates of every counted column, the key included', async () => {
    const owner = await signupUser(stack);
    const { id: projectId } = await createProject(stack, owner);
    const { next, pick } = random(20261130);
    const hour = Date.UTC(2026, 10, 30, 3);
    const at = () => (next() < 0.4 ? null : new Date(hour + Math.floor(next() * 4) * 3_600_000 + Math.floor(next() * 3_600_000)));
    const campaigns = [null, '0d7c3f0e-0000-4000-8000-000000000001', '0d7c3f0e-0000-4000-8000-000000000002'];
    const stageValues = () => Object.fromEntries(STAGES.map((s) => [`${s}_at`, at()]));
    const emails = Array.from({ length: 120 }, () => ({
      id: crypto.randomUUID(),
      created_at: at() ?? new Date(hour),
      status: pick(STATUSES),
      source_type: pick(['TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW']),
      campaign_id: pick(campaigns),
      simulated: next() < 0.2,
      ...stageValues(),
    }));
    await sql(
      stack,
      `insert into emails (id, created_at, updated_at, project_id, to_address, from_address, subject, html, size_bytes, status, source_type,
         campaign_id, simulated, release_at, ${STAGES.map((s) => `${s}_at`).join(', ')})
       select r.id, r.created_at, now(), ?, 'to@example.test', 'from@example.test', 'Hello', '<p>Hello</p>', 100, r.status, r.source_type,
         r.campaign_id, r.simulated, ${RELEASE_AT('r."status"')}, ${STAGES.map((s) => `r.${s}_at`).join(', ')}
       from jsonb_to_recordset(?::jsonb) as r(id uuid, created_at timestamptz, status text, source_type text, campaign_id uuid, simulated boolean,
         ${STAGES.map((s) => `${s}_at timestamptz`).join(', ')})`,
      [projectId, JSON.stringify(emails)],
    );

    // Each statement changes a random part of the emails: some columns, some rows, now and then nothing counted.
    const columns = ['status', 'created_at', 'source_type', 'campaign_id', 'simulated', ...STAGES.map((s) => `${s}_at`)];
    for (let round = 0; round < 40; round++) {
      const changes = emails
        .filter(() => next() < 0.3)
        .map((e) => {
          const changed: Record<string, unknown> = { id: e.id };
          for (const column of columns.filter(() => next() < 0.25)) {
            if (column === 'status') changed[column] = pick(STATUSES);
            else if (column === 'created_at') changed[column] = at() ?? new Date(hour);
            else if (column === 'source_type') changed[column] = pick(['TRANSACTIONAL', 'CAMPAIGN', 'WORKFLOW']);
            else if (column === 'campaign_id') changed[column] = pick(campaigns);
            else if (column === 'simulated') changed[column] = next() < 0.5;
            else changed[column] = at();
          }
          return changed;
        });
      await sql(
        stack,
        `update emails e set updated_at = now(),
           release_at = ${RELEASE_AT(`case when jsonb_exists(c.changes, 'status') then c.changes ->> 'status' else e."status" end`)}, ${columns
             .map(
               (c) => `"${c}" = case when jsonb_exists(c.changes, '${c}') then (c.changes ->> '${c}')::${columnType(c)} else e."${c}" end`,
             )
             .join(', ')}
         from (select x.value as changes from jsonb_array_elements(?::jsonb) x) c where e.id = (c.changes ->> 'id')::uuid`,
        [JSON.stringify(changes)],
      );
    }

    const { rollup, truth } = await rollupAndTruth(projectId);
    expect(truth.length).toBeGreaterThan(10);
    expect(rollup).toEqual(truth);
  });

  // PL/pgSQL plans the trigger's statement once per connection, with the sizes of its first run: a nested loop
  // planned for one email would compare every new row with every old one in each later mark (migration 0155).
  it('pairs old and new emails without a nested loop on a connection whose first update was of one email', async () => {
    const owner = await signupUser(stack);
    const { id: projectId } = await createProject(stack, owner);
    const ids = Array.from({ length: 6 }, () => crypto.randomUUID());
    await sql(
      stack,
      `insert into emails (id, created_at, updated_at, project_id, to_address, from_address, subject, html, size_bytes, status, source_type)
       select id::uuid, now(), now(), ?, 'to@example.test', 'from@example.test', 'Hello', '<p>Hello</p>', 100, 'PENDING', 'CAMPAIGN'
       from jsonb_array_elements_text(?::jsonb) as id`,
      [projectId, JSON.stringify(ids)],
    );
    const markSent = (c: Client, emails: string[]) =>
      c.query(`update emails set status = 'SENT', sent_at = now() where id = any($1::uuid[])`, [emails]);
    const plans = await plansAfter(
      stack,
      (c) => markSent(c, ids.slice(0, 1)),
      (c) => markSent(c, ids.slice(1)),
    );
    const pairing = plans.filter((plan) => plan.includes('"pairs"'));
    expect(pairing).toHaveLength(1);
    expect(pairing[0]).toMatch(/Hash Join|Merge Join/);
    expect(pairing[0]).not.toContain('Nested Loop');
    const { rollup, truth } = await rollupAndTruth(projectId);
    expect(rollup).toEqual(truth);
  });
});

function columnType(column: string): string {
  if (column === 'simulated') return 'boolean';
  if (column === 'campaign_id') return 'uuid';
  if (column.endsWith('_at')) return 'timestamptz';
  return 'text';
}
