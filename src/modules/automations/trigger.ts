import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { executePrepared, keyLookup } from '../../db/prepared';
import { reachAutomationGoal, signalAutomation } from '../../temporal/automation';
import type { Goal } from '../../../workflows/automation/definition';
import { byContact, type EventConsumer, type OutboxEvent } from '../outbox/consumer';
import { Automation } from './entities';
import { reachesGoal } from './goal';
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

// The contact's running executions whose goal (in the definition they run) names the event, asked once the batch's
// executions are started, so that one started by an earlier event of the batch hears a later one. An event counts
// from the one that started the execution (in the outbox's order), or from a manual start; never that event itself.
// Each event's contact is looked up by key (keyLookup): as a join, a plan made while the statistics said there
// were no executions hashed every active one.
const GOALS = `
select i."id", x."temporal_workflow_id" as "workflow_id", x."goal"
from jsonb_to_recordset(?::jsonb) as i("id" uuid, "contact_id" uuid, "name" text, "created_at" timestamptz)
cross join ${keyLookup(
  'automation_executions x',
  'x."contact_id"',
  'i."contact_id"',
  `x."temporal_workflow_id", x."definition" -> 'goal' as "goal", x."status", x."trigger_event_id", x."created_at"`,
)} x
where x."status" in ('RUNNING', 'WAITING') and x."goal" ->> 'event' = i."name" and x."trigger_event_id" is distinct from i."id" and (
  (x."trigger_event_id" is null and i."created_at" >= x."created_at")
  or exists (select 1 from events t join events e on e."id" = i."id"
             where t."id" = x."trigger_event_id" and (e."created_at", e."seq") > (t."created_at", t."seq")))`;

/** The executions each event reaches the goal of (its filter judged here): their Temporal workflow ids, by event id. */
async function goalsReached(em: EntityManager, events: readonly OutboxEvent[]): Promise<Map<string, string[]>> {
  const reached = new Map<string, string[]>();
  if (events.length === 0) return reached;
  const rows = await executePrepared<{ id: string; workflow_id: string; goal: Goal }>(em, 'automation_goals_batch', GOALS, [
    JSON.stringify(events.map((e) => ({ id: e.id, contact_id: e.contactId, name: e.name, created_at: e.createdAt.toISOString() }))),
  ]);
  const byId = new Map(events.map((e) => [e.id, e]));
  for (const row of rows) {
    const event = byId.get(row.id)!;
    if (reachesGoal(row.goal, event, event.createdAt)) reached.set(row.id, [...(reached.get(row.id) ?? []), row.workflow_id]);
  }
  return reached;
}

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
 * and is signalled to the contact's executions WAITING for its name, and to those whose goal it reaches
 * (docs/automations.md "Goals"). Handing the same event over again
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
    const handing = events.filter((e) => !failures.has(e.id));
    const goals = await goalsReached(em, handing);
    const signalled = await byContact(handing, async (event) => {
      const handed = { id: event.id, name: event.name, data: event.data, createdAt: event.createdAt.toISOString() };
      // The goal first: an execution that also waits for the event ends rather than goes on (unless past its window).
      await Promise.all((goals.get(event.id) ?? []).map((workflowId) => reachAutomationGoal(deps.temporal, workflowId, handed, signal)));
      await Promise.all(asked.get(event.id)!.waiting.map((workflowId) => signalAutomation(deps.temporal, workflowId, handed, signal)));
    });
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
