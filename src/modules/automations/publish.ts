import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../db/columns';
import { Automation, AutomationVersion } from './entities';
import { loadGraph } from './graphs';
import { snapshotOf } from './snapshots';

/**
 * Publishes the automation's graph as it stands as its next version, unless it is the latest already: called in
 * the transaction of every graph edit of an enabled automation, and of enabling one (docs/automations.md "Versions").
 */
export async function publishVersion(tx: EntityManager, automation: Automation): Promise<void> {
  const graph = snapshotOf(await loadGraph(tx, automation.id));
  if (automation.version > 0) {
    const latest = await tx.findOne(AutomationVersion, { automationId: automation.id, number: automation.version });
    if (latest && isDeepStrictEqual(latest.graph, graph)) return;
  }
  const number = automation.version + 1;
  await tx.insert(AutomationVersion, { id: newId(), automationId: automation.id, number, graph, createdAt: new Date() });
  await tx.nativeUpdate(Automation, { id: automation.id }, { version: number });
  automation.version = number;
}
