import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { executePrepared } from '../../db/prepared';
import { signalAutomation } from '../../temporal/automation';
import { byContact, type EventConsumer, type OutboxEvent } from '../outbox/consumer';
import { Automation } from './entities';
import { startExecution, startTriggered, type TriggeredEntry } from './start';

// What every event asks (most concern no automation at all), for a whole batch in one round trip of a prepared
// statement: the automations it starts, the contact they start for, and the executions that await it.
const CONCERNED = `
select i."id",
  (select coalesce(jsonb_agg(a), '[]') from automations a
   where a."project_id" = i."project_id" and a."enabled" and a."trigger_type" = 'EVENT' and a."trigger_config" ->> 'eventName' = i."name") as "triggered",
  (select jsonb_build_object('id', c."id", 'email', c."email") from contacts c where c."id" = i."contact_id" and c."project_id" = i."project_id") as "contact",
  (select coalesce(jsonb_agg(x."temporal_workflow_id"), '[]') from automation_executions x
   where x."contact_id" = i."contact_id" and x."status" = 'WAITING' and x."waiting_for" = i."name") as "waiting"
from jsonb_to_recordset(?::jsonb) as i("id" uuid, "project_id" uuid, "contact_id" uuid, "name" text)`;

interface Concerned {
  triggered: Automation[];
  contact: { id: string; email: string } | null;
  waiting: string[];
}

async function concerned(em: EntityManager, events: readonly OutboxEvent[]): Promise<Map<string, Concerned>> {
  const rows = await executePrepared<{
    id: string;
    triggered: Array<Record<string, unknown>>;
    contact: Concerned['contact'];
    waiting: string[];
  }>(em, 'automation_concerned_batch', CONCERNED, [
    JSON.stringify(events.map((e) => ({ id: e.id, project_id: e.projectId, contact_id: e.contactId, name: e.name }))),
  ]);
  return new Map(
    rows.map((row) => [row.id, { triggered: row.triggered.map((a) => em.map(Automation, a)), contact: row.contact, waiting: row.waiting }]),
  );
}

/**
 * The automation engine's hand of the events outbox. Every dispatched event (tracked or service: contact.*,
 * email.*, segment.*) starts executions of the enabled EVENT workflows it names, with its data as context,
 * and is signalled to the contact's executions WAITING for its name. Handing the same event over again
 * finds the executions it started and signals again, which the workflows deduplicate by event id. A batch
 * asks its questions and records its entries in a few round trips for all its events.
 */
export function automationTrigger(deps: Deps): EventConsumer {
  async function handleBatch(events: readonly OutboxEvent[], signal: AbortSignal): Promise<Map<string, string>> {
    const em = deps.orm.em.fork();
    const asked = await concerned(em, events);
    // The first entry of each contact into each automation is recorded with the batch's; a second one (a
    // contact that re-entered within the batch) waits for it and goes on its own, in order.
    const batch: TriggeredEntry[] = [];
    const after: TriggeredEntry[] = [];
    const pairs = new Set<string>();
    for (const event of events) {
      const { triggered, contact } = asked.get(event.id)!;
      if (!contact) continue;
      for (const automation of triggered) {
        const pair = `${automation.id}:${contact.id}`;
        (pairs.has(pair) ? after : batch).push({ automation, contact, event: { id: event.id, data: event.data } });
        pairs.add(pair);
      }
    }
    const failures = await startTriggered(deps, em, batch, signal);
    for (const { automation, contact, event } of after) {
      try {
        await startExecution(deps, em, automation, contact, {
          context: event.data,
          triggerEventId: event.id,
          signal,
          onUnreachable: 'keep',
        });
      } catch (err) {
        failures.set(event.id, err instanceof Error ? err.message : String(err));
      }
    }
    const signalled = await byContact(
      events.filter((e) => !failures.has(e.id)),
      async (event) => {
        const handed = { id: event.id, name: event.name, data: event.data, createdAt: event.createdAt.toISOString() };
        await Promise.all(asked.get(event.id)!.waiting.map((workflowId) => signalAutomation(deps.temporal, workflowId, handed, signal)));
      },
    );
    return new Map([...failures, ...signalled]);
  }
  return {
    name: 'automations',
    handleBatch,
    async handle(event, signal) {
      const failure = (await handleBatch([event], signal)).get(event.id);
      if (failure) throw new Error(failure);
    },
  };
}
