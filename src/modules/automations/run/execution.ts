import type { EntityManager } from '@mikro-orm/postgresql';
import { Contact } from '../../contacts/entities';
import type { AutomationExecution } from '../entities';
import { liveExecution } from '../records';
import { ExecutionGone } from './errors';

export interface LiveExecution {
  execution: AutomationExecution;
  contact: Contact;
}

/** Every step activity starts here: it acts only for an execution that is still active, on a contact that exists. */
export async function requireLive(em: EntityManager, executionId: string): Promise<LiveExecution> {
  const execution = await liveExecution(em, executionId);
  const contact = execution && (await em.findOne(Contact, { id: execution.contactId, projectId: execution.projectId }));
  if (!execution || !contact) throw new ExecutionGone(executionId);
  return { execution, contact };
}
