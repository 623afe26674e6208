import { newId } from '../../src/db/columns';
import { Contact } from '../../src/modules/contacts/entities';
import { Event } from '../../src/modules/outbox/entities';
import type { TestStack } from './stack';

/**
 * Rows that modules without endpoints yet (contacts, sending) will write: written straight into the real
 * database, the way those modules store them.
 */
export async function seedContact(stack: TestStack, projectId: string, email = `c-${newId().slice(0, 8)}@example.test`) {
  const em = stack.deps.orm.em.fork();
  const contact = em.create(Contact, { id: newId(), projectId, email, subscribed: true, data: {} });
  await em.flush();
  return contact;
}

export async function seedEvents(
  stack: TestStack,
  projectId: string,
  contactId: string,
  events: Array<{ name: string; data?: Record<string, unknown>; at?: Date; count?: number }>,
): Promise<void> {
  const em = stack.deps.orm.em.fork();
  for (const e of events) {
    for (let i = 0; i < (e.count ?? 1); i++) {
      em.create(Event, {
        id: newId(),
        projectId,
        contactId,
        name: e.name,
        data: e.data ?? {},
        createdAt: e.at ?? new Date(),
      });
    }
  }
  await em.flush();
}

export const sql = <T = Record<string, unknown>>(stack: TestStack, query: string, params: unknown[] = []) =>
  stack.deps.orm.em.fork().execute<T[]>(query, params);

/**
 * Makes the project's events of these names enter the events outbox, as an automation naming them would
 * (docs/architecture.md "Events: the outbox"): for tests of the outbox with consumers of their own.
 */
export const hear = (stack: TestStack, projectId: string, ...names: string[]) =>
  sql(stack, 'insert into heard_event_names (project_id, name) select ?, jsonb_array_elements_text(?::jsonb) on conflict do nothing', [
    projectId,
    JSON.stringify(names),
  ]);

/** How a seeded sent email ended, as delivery reports would have recorded it. */
export type SeededOutcome = 'delivered' | 'bounce' | 'softbounce' | 'complaint';

/**
 * Emails that left at `at` (default now), `count` of them, written straight into `emails` (no queue row: they
 * were sent) so that the rollup triggers count them as delivery would have: reputation figures without
 * sending thousands of messages. `simulated` marks them as mail to the sandbox's simulator domain.
 */
export async function seedSentEmails(
  stack: TestStack,
  projectId: string,
  rows: Array<{ count: number; outcome?: SeededOutcome; at?: Date; simulated?: boolean }>,
): Promise<void> {
  for (const r of rows) {
    const at = r.at ?? new Date();
    const outcome = r.outcome ?? 'delivered';
    await sql(
      stack,
      `insert into emails (id, created_at, updated_at, project_id, to_address, from_address, subject, html, size_bytes, source_type,
         status, sent_at, delivered_at, bounced_at, hard_bounced_at, complained_at, simulated)
       select gen_random_uuid(), ?, ?, ?, 'seeded-' || g || '@' || ?, 'seed@example.test', 'Seeded', '<p>Seeded</p>', 100, 'TRANSACTIONAL',
         ?, ?, ?, ?, ?, ?, ?
       from generate_series(1, ?) g`,
      [
        at,
        at,
        projectId,
        r.simulated ? 'simulator.postwire.test' : 'example.test',
        { delivered: 'DELIVERED', bounce: 'BOUNCED', softbounce: 'BOUNCED', complaint: 'COMPLAINED' }[outcome],
        at,
        outcome === 'delivered' || outcome === 'complaint' ? at : null,
        outcome === 'bounce' || outcome === 'softbounce' ? at : null,
        outcome === 'bounce' ? at : null,
        outcome === 'complaint' ? at : null,
        r.simulated ?? false,
        r.count,
      ],
    );
  }
}
