import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { executePrepared } from '../../db/prepared';
import { signalAutomation } from '../../temporal/automation';
import type { EventConsumer, OutboxEvent } from '../outbox/consumer';
import { Automation } from './entities';
import { startExecution } from './start';

// What every event asks (most concern no automation at all), in one round trip of a prepared statement: the
// automations it starts, the contact they start for, and the executions that await it.
const CONCERNED = `
select
  (select coalesce(jsonb_agg(a), '[]') from automations a
   where a."project_id" = ? and a."enabled" and a."trigger_type" = 'EVENT' and a."trigger_config" ->> 'eventName' = ?) as triggered,
  (select jsonb_build_object('id', c."id", 'email', c."email") from contacts c where c."id" = ? and c."project_id" = ?) as contact,
  (select coalesce(jsonb_agg(x."temporal_workflow_id"), '[]') from automation_executions x
   where x."contact_id" = ? and x."status" = 'WAITING' and x."waiting_for" = ?) as waiting`;

interface Concerned {
  triggered: Automation[];
  contact: { id: string; email: string } | null;
  waiting: string[];
}

async function concerned(em: EntityManager, event: OutboxEvent): Promise<Concerned> {
  const [row] = await executePrepared<{ triggered: Array<Record<string, unknown>>; contact: Concerned['contact']; waiting: string[] }>(
    em,
    'automation_concerned',
    CONCERNED,
    [event.projectId, event.name, event.contactId, event.projectId, event.contactId, event.name],
  );
  return {
    triggered: (row?.triggered ?? []).map((a) => em.map(Automation, a)),
    contact: row?.contact ?? null,
    waiting: row?.waiting ?? [],
  };
}

/**
 * The automation engine's hand of the events outbox. Every dispatched event (tracked or service: contact.*,
 * email.*, segment.*) starts executions of the enabled EVENT workflows it names, with its data as context,
 * and is signalled to the contact's executions WAITING for its name. Handing the same event over again
 * finds the executions it started and signals again, which the workflows deduplicate by event id.
 */
export function automationTrigger(deps: Deps): EventConsumer {
  return {
    name: 'automations',
    async handle(event, signal) {
      const em = deps.orm.em.fork();
      const { triggered, contact, waiting } = await concerned(em, event);
      if (contact) {
        for (const automation of triggered) {
          await startExecution(deps, em, automation, contact, {
            context: event.data,
            triggerEventId: event.id,
            signal,
            onUnreachable: 'keep',
          });
        }
      }
      const handed = { id: event.id, name: event.name, data: event.data, createdAt: event.createdAt.toISOString() };
      await Promise.all(waiting.map((workflowId) => signalAutomation(deps.temporal, workflowId, handed, signal)));
    },
  };
}
