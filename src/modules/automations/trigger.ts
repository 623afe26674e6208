import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../../deps';
import { signalAutomation } from '../../../workflows/automation/lifecycle';
import { Contact } from '../contacts/entities';
import type { EventConsumer, OutboxEvent } from '../events/outbox/consumer';
import { Automation } from './entities';
import { startExecution } from './start';

const TRIGGERED = `
select * from automations
where "project_id" = ? and "enabled" and "trigger_type" = 'EVENT' and "trigger_config" ->> 'eventName' = ?`;

const WAITING = `
select "temporal_workflow_id" from automation_executions
where "contact_id" = ? and "status" = 'WAITING' and "waiting_for" = ?`;

async function triggered(em: EntityManager, event: OutboxEvent): Promise<Automation[]> {
  const rows = await em.execute<Array<Record<string, unknown>>>(TRIGGERED, [event.projectId, event.name]);
  return rows.map((row) => em.map(Automation, row));
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
      const automations = await triggered(em, event);
      const contact = automations.length ? await em.findOne(Contact, { id: event.contactId, projectId: event.projectId }) : null;
      if (contact) {
        for (const automation of automations) {
          await startExecution(deps, em, automation, contact, { context: event.data, triggerEventId: event.id, signal, onUnreachable: 'keep' });
        }
      }
      const waiting = await em.execute<Array<{ temporal_workflow_id: string }>>(WAITING, [event.contactId, event.name]);
      const handed = { id: event.id, name: event.name, data: event.data, createdAt: event.createdAt.toISOString() };
      await Promise.all(waiting.map((w) => signalAutomation(deps.temporal, w.temporal_workflow_id, handed, signal)));
    },
  };
}
